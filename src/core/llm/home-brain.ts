/**
 * The home computer as the brain: the three programs a family is likely to run (Ollama, llama.cpp's
 * llama-server, LM Studio), what to do on that computer, and the exact address to type on the tablet
 * for the page the app is open on. Pure: the page's address is passed in.
 *
 * Facts behind the steps: Ollama listens on 127.0.0.1:11434 unless `OLLAMA_HOST=0.0.0.0`, and
 * answers a web page from another origin only if `OLLAMA_ORIGINS` allows it (403 otherwise);
 * llama-server listens on 127.0.0.1:8080 unless `--host 0.0.0.0`, and allows every origin by
 * default; LM Studio's server is on port 1234, reachable from other devices only with
 * 「Serve on Local Network」 and from a web page only with 「Enable CORS」. All three speak the
 * OpenAI-compatible API under `/v1`. A page opened over https may not call an http:// address
 * (mixed content; loopback excepted), so from an https page the brain is reached through the
 * same https address the app came from: `npm start` on that computer forwards `/brain/` to the
 * program when started with `AGENTCADE_BRAIN=http://localhost:<port>` (vite.config.ts).
 */
import { isLoopbackHost } from '../protocol/remote-card.ts';

export type HomeBrainProgramId = 'ollama' | 'llama-server' | 'lm-studio';

export interface HomeBrainProgram {
  id: HomeBrainProgramId;
  name: string;
  /** The port it listens on by default. */
  port: number;
  /** A small model that plays well (the name to type as 模型名称; empty: the server has one loaded). */
  model: string;
}

export const HOME_BRAIN_PROGRAMS: readonly HomeBrainProgram[] = [
  { id: 'ollama', name: 'Ollama', port: 11434, model: 'qwen2.5:1.5b' },
  { id: 'llama-server', name: 'llama.cpp', port: 8080, model: '' },
  { id: 'lm-studio', name: 'LM Studio', port: 1234, model: 'qwen2.5-1.5b-instruct' },
];

/** The page the app is open on (location's parts). */
export interface PageAddress {
  protocol: string;
  hostname: string;
  /** `https://robot.local:4443` */
  origin: string;
}

export interface HomeBrainAdvice {
  /** What to type as 接口地址. */
  address: string;
  /**
   * `direct`: the program's own address; `forward`: through the app's own https address
   * (`/brain/`, forwarded by `npm start` on the computer that serves the app).
   */
  via: 'direct' | 'forward';
  /** Steps on the home computer, in order (commands in 「」 are typed as they are). */
  steps: string[];
  /** Why this address, in one or two sentences. */
  why: string;
}

/** The steps that start the program so that the tablet can reach it directly (its own address). */
function directSteps(p: HomeBrainProgram, origin: string, sameComputer: boolean): string[] {
  switch (p.id) {
    case 'ollama':
      return [
        '在电脑上安装 Ollama（ollama.com），然后下载一个小模型：「ollama pull qwen2.5:1.5b」。',
        sameComputer
          ? `让它允许这个页面访问，再启动：「OLLAMA_ORIGINS=${origin} ollama serve」（Windows 在系统环境变量里加 OLLAMA_ORIGINS=${origin}，再重启 Ollama）。`
          : `让平板能连上、并允许这个页面访问，再启动：「OLLAMA_HOST=0.0.0.0 OLLAMA_ORIGINS=${origin} ollama serve」（Windows 在系统环境变量里加这两项，再重启 Ollama）。`,
      ];
    case 'llama-server':
      return [
        '下载 llama.cpp 和一个小模型文件（例如 Qwen2.5-1.5B-Instruct 的 q4_k_m.gguf）。',
        sameComputer ? '启动：「llama-server -m 模型文件.gguf --port 8080」。' : '启动，并让平板能连上：「llama-server -m 模型文件.gguf --host 0.0.0.0 --port 8080」。',
      ];
    case 'lm-studio':
      return [
        '在 LM Studio 里下载一个小模型（例如 Qwen2.5 1.5B Instruct），并加载它。',
        sameComputer
          ? '打开「Developer」页，打开「Enable CORS」，再点「Start Server」（端口 1234）。'
          : '打开「Developer」页，打开「Serve on Local Network」和「Enable CORS」，再点「Start Server」（端口 1234）。',
      ];
  }
}

/**
 * What to type on the tablet, and what to do on the computer, for `program` and this page.
 * - page on localhost (the app opened on the computer itself): the program on localhost;
 * - page over http on the home network: the program on the same computer as the app;
 * - page over https: through the app's own address, `/brain/v1` (no mixed content, no CORS).
 */
export function homeBrainAdvice(program: HomeBrainProgram, page: PageAddress): HomeBrainAdvice {
  const host = page.hostname.includes(':') && !page.hostname.startsWith('[') ? `[${page.hostname}]` : page.hostname;
  if (page.protocol === 'https:' && !isLoopbackHost(page.hostname)) {
    return {
      address: `${page.origin}/brain/v1`,
      via: 'forward',
      steps: [
        ...directSteps(program, page.origin, true).slice(0, 1),
        program.id === 'lm-studio' ? '在 LM Studio 的「Developer」页点「Start Server」（端口 1234）。' : program.id === 'ollama' ? '启动 Ollama（装好后一般已经在运行）。' : '启动：「llama-server -m 模型文件.gguf --port 8080」。',
        `在打开游戏厅的那台电脑上，这样启动游戏厅：「AGENTCADE_BRAIN=http://localhost:${program.port} npm start」。`,
      ],
      why: '这个页面是 https 打开的，浏览器不让它直接连电脑上的 http:// 地址。游戏厅的电脑把「/brain/」转给大脑程序，平板就用和游戏厅同一个 https 地址。',
    };
  }
  const local = isLoopbackHost(page.hostname);
  return {
    address: `http://${local ? 'localhost' : host}:${program.port}/v1`,
    via: 'direct',
    steps: directSteps(program, page.origin, local),
    why: local
      ? '游戏厅就开在这台电脑上，大脑程序也在这台电脑上。'
      : `大脑程序和游戏厅在同一台电脑（${page.hostname}）上；如果在另一台电脑上，把地址里的 ${page.hostname} 换成那台电脑的地址。`,
  };
}
