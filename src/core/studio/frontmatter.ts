/**
 * Splits a Markdown file into its YAML head and body. The head is either YAML frontmatter
 * (`---` … `---` at the top) or, for manifests, the first fenced ```yaml block. Never throws:
 * problems come back as diagnostics so the loader can report every one of them at once.
 */
import { parse as parseYaml } from 'yaml';

interface Frontmatter {
  data: Record<string, unknown> | null;
  body: string;
  diagnostics: string[];
}

function normalise(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

function parseHead(yamlText: string, diagnostics: string[]): Record<string, unknown> | null {
  try {
    const data: unknown = parseYaml(yamlText);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      diagnostics.push('YAML 头部必须是一个键值映射（mapping）');
      return null;
    }
    return data as Record<string, unknown>;
  } catch (err) {
    diagnostics.push(`YAML 解析失败：${(err as Error).message.split('\n')[0]}`);
    return null;
  }
}

export function splitFrontmatter(text: string, opts: { allowFencedBlock?: boolean } = {}): Frontmatter {
  const src = normalise(text);
  const diagnostics: string[] = [];
  const fm = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(src);
  if (fm) return { data: parseHead(fm[1], diagnostics), body: src.slice(fm[0].length), diagnostics };
  if (opts.allowFencedBlock) {
    const fence = /^```ya?ml[ \t]*\n([\s\S]*?)\n```[ \t]*$/m.exec(src);
    if (fence) {
      const body = src.slice(0, fence.index) + src.slice(fence.index + fence[0].length);
      return { data: parseHead(fence[1], diagnostics), body, diagnostics };
    }
  }
  diagnostics.push(opts.allowFencedBlock ? '缺少 YAML 头部（--- 包围的 frontmatter 或 ```yaml 代码块）' : '缺少 YAML frontmatter（文件开头 --- … ---）');
  return { data: null, body: src, diagnostics };
}
