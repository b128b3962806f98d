/* The benchmark hook: one tiny program shared by hookside, the spawn floor
 * and the Node runner, so that differences are the runners'.
 *
 *   hook                 read stdin to EOF, print {}            (figures 1, 2)
 *   hook spew N          read stdin, write N bytes to stdout    (output cap, memory)
 *   hook sleep           read stdin, wait for a signal          (timeout kill)
 *   hook sleepms N       read stdin, sleep N ms, print {}       (parallel probe)
 *   hook ignoreterm      ignore SIGTERM, then like sleep        (kill grace)
 *   hook capture FILE    copy stdin to FILE, print {}           (stdin capture)
 *   hook stamp FILE      like hook, then append "START END\n" to FILE: CLOCK_MONOTONIC
 *                        ns at main() and after its answer's write     (phases)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static char buf[65536];

static void drain(int copyfd) {
	for (;;) {
		ssize_t n = read(0, buf, sizeof buf);
		if (n <= 0) return;
		if (copyfd >= 0) (void)!write(copyfd, buf, (size_t)n);
	}
}

static void answer(void) { (void)!write(1, "{}\n", 3); }

static long long mono(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
	long long start = mono();
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "stamp") == 0 && argc > 2) {
		drain(-1);
		answer();
		long long end = mono();
		char line[64];
		int n = snprintf(line, sizeof line, "%lld %lld\n", start, end);
		int fd = open(argv[2], O_WRONLY | O_APPEND | O_CREAT, 0644);
		if (fd < 0 || write(fd, line, (size_t)n) != n) return 1;
		close(fd);
		return 0;
	}
	if (strcmp(mode, "capture") == 0 && argc > 2) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		drain(fd);
		close(fd);
		answer();
		return 0;
	}
	if (strcmp(mode, "ignoreterm") == 0) signal(SIGTERM, SIG_IGN);
	drain(-1);
	if (strcmp(mode, "spew") == 0 && argc > 2) {
		long long left = atoll(argv[2]);
		memset(buf, 'x', sizeof buf);
		while (left > 0) {
			size_t n = left < (long long)sizeof buf ? (size_t)left : sizeof buf;
			ssize_t w = write(1, buf, n);
			if (w <= 0) return 1;
			left -= w;
		}
		return 0;
	}
	if (strcmp(mode, "sleep") == 0 || strcmp(mode, "ignoreterm") == 0) {
		for (;;) pause();
	}
	if (strcmp(mode, "sleepms") == 0 && argc > 2) {
		long ms = atol(argv[2]);
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	answer();
	return 0;
}
