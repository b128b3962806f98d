import { StringDecoder } from "node:string_decoder";
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  Disposable,
  type DataCallback,
  type Message,
  type MessageReader,
  type MessageWriter,
} from "vscode-jsonrpc/node";

/**
 * Reads NDJSON frames (one JSON object per "\n"-terminated line, UTF-8; the
 * default framing of `hookside app-server --stdio`) for vscode-jsonrpc.
 * Blank lines are skipped; a line that is not JSON is reported through
 * onError and skipped (the connection goes on, as hookside's own reader
 * does).
 */
export class NDJSONMessageReader extends AbstractMessageReader implements MessageReader {
  constructor(private readonly readable: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const decoder = new StringDecoder("utf8");
    let parts: string[] = []; // the current line so far, without "\n"
    const emit = (line: string): void => {
      const text = line.trim();
      if (text === "") return;
      let msg: Message;
      try {
        msg = JSON.parse(text) as Message;
      } catch {
        this.fireError(new Error(`hookside: a line that is not JSON: ${text.slice(0, 200)}`));
        return;
      }
      callback(msg);
    };
    const onData = (chunk: Buffer | string): void => {
      let s = typeof chunk === "string" ? chunk : decoder.write(chunk);
      for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n")) {
        parts.push(s.slice(0, i));
        const line = parts.join("");
        parts = [];
        s = s.slice(i + 1);
        emit(line);
      }
      if (s !== "") parts.push(s);
    };
    const onEnd = (): void => {
      const rest = parts.join("") + decoder.end();
      parts = [];
      emit(rest); // a last line without "\n" still counts
      this.fireClose();
    };
    const onError = (err: Error): void => this.fireError(err);
    this.readable.on("data", onData);
    this.readable.on("end", onEnd);
    this.readable.on("error", onError);
    return Disposable.create(() => {
      this.readable.off("data", onData);
      this.readable.off("end", onEnd);
      this.readable.off("error", onError);
    });
  }
}

/** Writes each message as one JSON line ("\n"-terminated, UTF-8). */
export class NDJSONMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly writable: NodeJS.WritableStream) {
    super();
    writable.on("error", (err: Error) => this.fireError(err));
    writable.on("close", () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    // JSON.stringify escapes every newline inside strings: one message, one line.
    const line = JSON.stringify(msg) + "\n";
    return new Promise((resolve, reject) => {
      this.writable.write(line, "utf8", (err?: Error | null) => {
        if (err) {
          this.errorCount++;
          this.fireError(err, msg, this.errorCount);
          reject(err);
          return;
        }
        this.errorCount = 0;
        resolve();
      });
    });
  }

  end(): void {
    this.writable.end();
  }
}
