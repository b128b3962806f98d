/* The C spawn floor of the hookside benchmarks: the least a long-lived
 * runner can do for one hook, with the cheapest spawn the C library has.
 * Driven like hookside (one request line in, one answer line out) so the
 * pipe round trip is the same for every runner. Per request and hook it
 * posix_spawns the hook program with three pipes, writes the request line
 * to the hook's stdin and closes it, drains stdout (keeping at most -c
 * bytes) and stderr with poll, waits for the child with waitpid, and
 * answers with the last hook's stdout (or {}). A hook past its deadline
 * gets SIGKILL. No JSON, no process group, no notifications.
 *
 *   floor [-n N] [-p] [-t TIMEOUT_MS] [-c CAP_BYTES] -- prog [args…]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct job {
	pid_t pid;
	int in, out, err;       /* parent ends; -1 once closed */
	size_t inOff;           /* bytes of the request written so far */
	char *keep;             /* first cap bytes of stdout */
	size_t kept;
};

static size_t cap = 32768;
static long timeoutMs = 60000;
static char **prog;

static long long nowMs(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void closefd(int *fd) {
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* spawn starts one hook with stdin, stdout and stderr on fresh pipes. */
static int spawn(struct job *j) {
	int pin[2], pout[2], perr[2];
	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	int rc = posix_spawnp(&j->pid, prog[0], &fa, NULL, prog, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	if (rc != 0) {
		close(pin[1]);
		close(pout[0]);
		close(perr[0]);
		errno = rc;
		return -1;
	}
	j->in = pin[1];
	j->out = pout[0];
	j->err = perr[0];
	fcntl(j->in, F_SETFL, O_NONBLOCK);
	j->inOff = 0;
	j->kept = 0;
	return 0;
}

/* drive runs jobs[0..n) to completion: stdin written, both pipes at EOF,
 * child reaped (SIGKILL at the deadline). */
static void drive(struct job *jobs, int n, const char *req, size_t reqLen) {
	static char buf[65536];
	struct pollfd pfd[96];
	struct job *who[96];
	long long deadline = nowMs() + timeoutMs;
	int killed = 0;
	for (;;) {
		int k = 0;
		for (int i = 0; i < n; i++) {
			struct job *j = &jobs[i];
			if (j->in >= 0) { pfd[k] = (struct pollfd){j->in, POLLOUT, 0}; who[k++] = j; }
			if (j->out >= 0) { pfd[k] = (struct pollfd){j->out, POLLIN, 0}; who[k++] = j; }
			if (j->err >= 0) { pfd[k] = (struct pollfd){j->err, POLLIN, 0}; who[k++] = j; }
		}
		if (k == 0) break;
		long long left = deadline - nowMs();
		if (left <= 0 && !killed) {
			for (int i = 0; i < n; i++) kill(jobs[i].pid, SIGKILL);
			killed = 1;
		}
		int r = poll(pfd, (nfds_t)k, killed ? -1 : (int)(left > 0 ? left : 0));
		if (r < 0 && errno != EINTR) break;
		for (int i = 0; r > 0 && i < k; i++) {
			if (!pfd[i].revents) continue;
			struct job *j = who[i];
			if (pfd[i].fd == j->in) {
				ssize_t w = write(j->in, req + j->inOff, reqLen - j->inOff);
				if (w > 0) j->inOff += (size_t)w;
				if (w < 0 && errno != EAGAIN) closefd(&j->in);
				else if (j->inOff == reqLen) closefd(&j->in);
				continue;
			}
			ssize_t got = read(pfd[i].fd, buf, sizeof buf);
			if (got <= 0) {
				if (got < 0 && errno == EINTR) continue;
				if (pfd[i].fd == j->out) closefd(&j->out);
				else closefd(&j->err);
				continue;
			}
			if (pfd[i].fd == j->out && j->kept < cap) {
				size_t take = (size_t)got < cap - j->kept ? (size_t)got : cap - j->kept;
				memcpy(j->keep + j->kept, buf, take);
				j->kept += take;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		int st;
		closefd(&jobs[i].in);
		while (waitpid(jobs[i].pid, &st, 0) < 0 && errno == EINTR) {
		}
	}
}

static void answer(struct job *j) {
	char *s = j->keep, *e = j->keep + j->kept;
	while (s < e && (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')) s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t')) e--;
	if (e == s || e - s > 4096) {
		s = "{}";
		e = s + 2;
	}
	fwrite(s, 1, (size_t)(e - s), stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

int main(int argc, char **argv) {
	int n = 1, parallel = 0, i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) n = atoi(argv[++i]);
		else if (strcmp(argv[i], "-p") == 0) parallel = 1;
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) timeoutMs = atol(argv[++i]);
		else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) cap = (size_t)atol(argv[++i]);
		else {
			fprintf(stderr, "floor: unknown flag %s\n", argv[i]);
			return 2;
		}
	}
	if (i + 1 >= argc || n < 1 || n > 32) {
		fprintf(stderr, "floor: usage: floor [-n 1..32] [-p] [-t MS] [-c BYTES] -- prog [args...]\n");
		return 2;
	}
	prog = argv + i + 1;
	signal(SIGPIPE, SIG_IGN);
	struct job *jobs = calloc((size_t)n, sizeof *jobs);
	for (int k = 0; k < n; k++) jobs[k].keep = malloc(cap ? cap : 1);
	char *line = NULL;
	size_t lineCap = 0;
	ssize_t len;
	while ((len = getline(&line, &lineCap, stdin)) > 0) {
		if (parallel) {
			int started = 0;
			for (int k = 0; k < n; k++, started++)
				if (spawn(&jobs[k]) != 0) break;
			drive(jobs, started, line, (size_t)len);
		} else {
			for (int k = 0; k < n; k++) {
				if (spawn(&jobs[k]) != 0) {
					perror("floor: posix_spawn");
					jobs[k].kept = 0;
					continue;
				}
				drive(&jobs[k], 1, line, (size_t)len);
			}
		}
		answer(&jobs[n - 1]);
	}
	return 0;
}
