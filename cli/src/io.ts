/** The process streams and environment a run uses, injected so tests can run the CLI in-process too. */
export interface Output {
  write(text: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  readonly stdout: Output & NodeJS.WritableStream;
  readonly stderr: Output & NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** All of a readable stream as text (stdin for `--many -`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
