/**
 * The calls a reader can paste from the README and docs/, read out of the Markdown itself so that the
 * test runs exactly what the pages show. A shell block yields one example per command (lines joined
 * where a `\` continues them, a quote is still open or a pipe leads on); a GraphQL block is one
 * example. What a page announces as an answer other than 2xx is read from the page too: a `→ 404` in
 * the command's trailing comment or in the comment lines right below it, or an
 * `<!-- example: announces 404 400 -->` line right above the block for every call in it.
 */

export type ExampleKind = 'shell' | 'graphql';

export interface DocExample {
  readonly file: string;
  /** 1-based line of the example's first line in its file. */
  readonly line: number;
  readonly kind: ExampleKind;
  /** The command (shell) or the document (GraphQL), comments left in. */
  readonly text: string;
  /** Statuses the page announces for this call besides 2xx. */
  readonly announced: readonly number[];
}

/** The programs whose calls reach the service; other commands (installs, kubectl, vitest) are not calls. */
const CALLING = /^(?:[A-Z_]+=\S+\s+)*(?:curl|grpcurl|npx retail)\b|^printf\b.*\|\s*$|^printf\b.*\|\s*curl\b|^[A-Z]+=\$\(curl\b/;
/** `retail listen` runs until it is stopped: test/clients/cli-listen.test.ts runs the recipe instead. */
const RUNS_UNTIL_STOPPED = /\bnpx retail listen\b/;

function statusesIn(text: string): number[] {
  return [...text.matchAll(/→\s*(\d{3})\b/g)].map((match) => Number(match[1]));
}

/** Whether a quoted string is still open at the end of `text`; a comment (`#` after a blank, outside quotes) runs to its line's end. */
function quoteOpen(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === '\\' && quote === '"') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '\'' || char === '"') quote = char;
    else if (char === '#' && (i === 0 || /\s/.test(text[i - 1]!))) while (i + 1 < text.length && text[i + 1] !== '\n') i++;
  }
  return quote !== undefined;
}

function shellCommands(body: string, firstLine: number): { text: string; line: number; trailing: string }[] {
  const lines = body.split('\n');
  const commands: { text: string; line: number; trailing: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!;
    while (i + 1 < lines.length && (/\\\s*$/.test(text) || /\|\s*$/.test(text) || quoteOpen(text))) text += `\n${lines[++i]}`;
    let trailing = '';
    while (i + 1 < lines.length && /^\s*#/.test(lines[i + 1]!)) trailing += `${lines[++i]}\n`;
    if (text.trim() && !/^\s*#/.test(text)) commands.push({ text, line: firstLine + start, trailing });
  }
  return commands;
}

export function extractExamples(markdown: string, file: string): DocExample[] {
  const examples: DocExample[] = [];
  // A fence may carry a title after its language (```sh [curl]: a tab of the documentation site's code groups).
  const fence = /^(?<announce><!-- example: announces (?<codes>[\d ]+) -->\n)?```(?<lang>[a-z]*)(?: \[[^\]\n]*\])?\n(?<body>[\s\S]*?)\n```$/gm;
  for (const match of markdown.matchAll(fence)) {
    const { announce, codes, lang, body } = match.groups!;
    const blockAnnounced = codes ? codes.trim().split(/\s+/).map(Number) : [];
    const firstLine = markdown.slice(0, match.index).split('\n').length + (announce ? 2 : 1);
    if (lang === 'graphql') {
      examples.push({ file, line: firstLine, kind: 'graphql', text: body!, announced: blockAnnounced });
    } else if (lang === 'sh') {
      for (const command of shellCommands(body!, firstLine)) {
        if (!CALLING.test(command.text.trimStart()) || RUNS_UNTIL_STOPPED.test(command.text)) continue;
        examples.push({ file, line: command.line, kind: 'shell', text: command.text, announced: [...blockAnnounced, ...statusesIn(command.text), ...statusesIn(command.trailing)] });
      }
    }
  }
  return examples;
}
