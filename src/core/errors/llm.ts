/**
 * The model layer's errors (the local engines, the remote API, the model port).
 */
import type { ErrorTable } from './types.ts';

export const modelErrors = {
  model_no_webgpu: {
    child: '我的大脑今天没法在这台平板上启动，请大人帮我看看设置吧。',
    parent:
      '这台设备的浏览器没有可用的 WebGPU 显卡（或只有软件模拟的显卡），无法在本机运行模型。请在设置里改用“远程接口”（局域网或云端的 OpenAI 兼容服务）。',
  },
  model_insecure_context: {
    child: '我的大脑今天没法启动，请大人帮我看看设置吧。',
    parent: '页面不是通过 https（或 localhost）打开的，浏览器因此不提供 WebGPU 和离线缓存。请用 https 地址打开本应用。',
  },
  model_cpu_unsupported: {
    child: '我的大脑今天没法在这台平板上启动，请大人帮我看看设置吧。',
    parent: '这个浏览器的 WebAssembly 功能不够（需要 SIMD、异常处理和 64 位内存），无法用 CPU 引擎在本机运行模型。请把浏览器更新到最新版，或改用远程接口。',
  },
  model_context_full: {
    child: '我今天记的事情太多了，我们重新开始一局吧。',
    parent: '这一步的对话超过了本机模型的上下文长度。请开始新的一局；经常发生时可在设置里换用远程接口。',
  },
  model_out_of_memory: {
    child: '我有点累了，脑袋转不动，请大人帮我重新启动一下。',
    parent: '显卡内存不足或显卡设备丢失（device lost）。请关闭其他页面后重试，或在设置里换成更小的模型（如 Qwen2.5-0.5B）。',
  },
  model_download_failed: {
    child: '我的大脑还没下载好，请大人帮我看看网络吧。',
    parent: '模型文件下载失败。请检查网络连接和模型地址，然后在设置里重新下载。',
  },
  model_file_bad: {
    child: '我的新大脑文件有问题，请大人帮我看看设置吧。',
    parent: '这个模型文件不能用，没有换上它（原来的大脑照常用）。',
  },
  model_offline_not_cached: {
    child: '现在没有网络，我的大脑还没存到平板上，请大人连上网络下载一次。',
    parent: '当前离线，而这个模型还没有完整下载到本机缓存。请联网后在设置里下载一次，之后即可离线使用。',
  },
  model_storage_full: {
    child: '平板的空间不够放我的大脑了，请大人帮忙清理一下。',
    parent: '浏览器存储空间不足，无法保存模型文件。请释放设备空间或换成更小的模型。',
  },
  model_bad_config: {
    child: '我的设置好像有点问题，请大人帮我看看。',
    parent: '模型配置无效（例如模型地址不是完整的 https:// 地址，或模型编号不存在）。请在设置里检查模型地址。',
  },
  model_not_loaded: {
    child: '我的大脑还没准备好，请稍等一下。',
    parent: '模型还没有加载完成。请在设置里加载模型，或等待加载结束。',
  },
  model_not_configured: {
    child: '我还没有大脑呢，请大人来帮我选一个大脑吧。',
    parent: '还没有选择可用的模型。请在设置里选择本机模型、远程接口或规则大脑。',
  },
  model_invalid_output: {
    child: '我刚才想糊涂了，我们再来一次吧。',
    also: ['我刚才没想明白，你再说一遍好吗？', '哎呀，我脑袋转晕了，我们再来一次吧。'],
    parent: '模型多次给出了无效的动作（不是合法的 JSON、动作不存在或参数不对），已放弃这一步。换用更大的模型通常能改善。',
  },
  model_remote_http: {
    child: '我连不上远方的大脑，请大人帮我看看设置吧。',
    also: ['远方的大脑没有回答我，请大人帮我看看设置好吗？', '我的大脑那边出了问题，请大人帮我看看设置吧。'],
    parent: '远程模型接口返回了错误（HTTP 状态码见详情）。请检查接口地址、模型名称和密钥。',
  },
  model_remote_auth: {
    child: '远方的大脑要一把钥匙才让我进去，这要请大人在设置里帮我弄好。',
    also: ['远方的大脑不让我进去，请大人帮我看看设置吧。'],
    parent: '远程模型接口拒绝了密钥（HTTP 401/403）。请在设置里检查 API 密钥。',
  },
  model_remote_network: {
    child: '我找不到远方的大脑了，请大人帮我看看电脑和网络吧。',
    also: ['远方的大脑没有回答我，请大人帮我看看那台电脑好吗？'],
    parent: '无法连接远程模型接口（网络错误或跨域被拒绝）。请检查地址、网络，以及服务端是否允许本页面跨域访问（如 Ollama 需设置 OLLAMA_ORIGINS）。',
  },
  model_remote_timeout: {
    child: '远方的大脑想得太久了，我们再试一次吧。',
    also: ['远方的大脑这次没来得及回答，你再说一遍好吗？', '大脑那边有点慢，我们再试一次吧。'],
    parent: '远程模型接口在限定时间内没有回答。请检查服务端负载，或在设置 → 大脑里加大“回答时限”（最长 120 秒）；远程接口的“超时”只在回答时限以内起作用。',
  },
  model_too_slow: {
    child: '我想得太久了，你再说一遍好吗？',
    also: ['这次我没来得及想好，我们再试一次吧。', '我想得有点慢，你再跟我说一次吧。'],
    parent: '这一步没有在这一轮的时限内想好（模型太慢，或远程接口一直没有回答）。可以换一个更快的模型，或加大“回答时限”。',
  },
  model_remote_bad_url: {
    child: '我的设置好像有点问题，请大人帮我看看。',
    also: ['大脑的地址好像写错了，请大人帮我看看设置吧。'],
    parent: '接口地址不是完整的网址：要以 http:// 或 https:// 开头，例如 http://192.168.1.20:11434/v1。',
  },
  model_remote_mixed_content: {
    child: '我连不上远方的大脑，请大人帮我看看设置吧。',
    also: ['远方的大脑的地址不安全，我连不上，请大人帮我看看设置吧。'],
    parent:
      '本页面通过 https 打开，浏览器禁止它访问 http:// 的接口（混合内容）。请给模型服务配置 https，或通过本应用所在的同一 https 地址转发。',
  },
  model_remote_bad_stream: {
    child: '远方的大脑说话断断续续的，我们再试一次吧。',
    also: ['远方的大脑的话没传过来，你再说一遍好吗？'],
    parent: '远程模型接口返回的流式数据格式不正确（不是 OpenAI 兼容的 SSE）。请确认地址指向 /v1 兼容接口。',
  },
} satisfies ErrorTable;
