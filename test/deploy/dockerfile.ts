/**
 * A small Dockerfile reader for the image tests (no docker engine runs here): stages with their
 * base and instructions, line continuations joined and comments dropped, and the effective value of
 * inherited settings (USER, ENTRYPOINT, CMD) through a chain of stages.
 */

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const logicalLines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logicalLines.push(pending + line);
    pending = '';
  }
  if (pending !== '') logicalLines.push(pending);

  for (const line of logicalLines) {
    const match = /^(\w+)\s*(.*)$/s.exec(line);
    if (!match) continue;
    const keyword = match[1]!.toUpperCase();
    const args = match[2]!.trim();
    if (keyword === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!from) throw new Error(`cannot read FROM ${args}`);
      stages.push({ name: from[2] ?? `#${stages.length}`, base: from[1]!, instructions: [] });
    } else if (stages.length > 0) {
      stages.at(-1)!.instructions.push({ keyword, args });
    }
  }
  return stages;
}

export function stageByName(stages: Stage[], name: string): Stage | undefined {
  return stages.find((stage) => stage.name === name);
}

/** The stage and its ancestors that are stages of this file, nearest first. */
export function stageChain(stages: Stage[], name: string): Stage[] {
  const chain: Stage[] = [];
  for (let stage = stageByName(stages, name); stage; stage = stageByName(stages, stage.base)) {
    if (chain.includes(stage)) throw new Error(`stage cycle at ${stage.name}`);
    chain.push(stage);
  }
  return chain;
}

/** The last value of an inherited instruction (USER, ENTRYPOINT, CMD, WORKDIR) for a stage. */
export function effective(stages: Stage[], name: string, keyword: string): string | undefined {
  for (const stage of stageChain(stages, name)) {
    const found = stage.instructions.filter((instruction) => instruction.keyword === keyword).at(-1);
    if (found) return found.args;
  }
  return undefined;
}

export interface Copy {
  from: string | undefined;
  sources: string[];
  destination: string;
}

export function copies(stage: Stage): Copy[] {
  return stage.instructions
    .filter((instruction) => instruction.keyword === 'COPY' || instruction.keyword === 'ADD')
    .map((instruction) => {
      const words = instruction.args.split(/\s+/);
      const flags = words.filter((word) => word.startsWith('--'));
      const paths = words.filter((word) => !word.startsWith('--'));
      const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
      return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' };
    });
}

/** Parses the exec form `["a", "b"]`; undefined for the shell form. */
export function execForm(args: string | undefined): string[] | undefined {
  if (args === undefined || !args.startsWith('[')) return undefined;
  return JSON.parse(args) as string[];
}
