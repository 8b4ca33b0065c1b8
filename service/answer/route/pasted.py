"""What a tool printed, or the command that started a job → the plain words the tagger reads.

Readers paste the output of `nvidia-smi`, `rocm-smi`, `hl-smi` and nccl-tests, or the command line of a
vLLM, SGLang, llama.cpp, DeepSpeed, torchrun or Slurm job, and ask one short line after it ("whats left for
kv?"). Most figures in such a paste are no input of any calculation (bus ids, UUIDs, temperatures, a card's
memory in MiB, `--gpu-memory-utilization 0.92`, `-ngl 99`), and the ones that are carry their meaning in a
flag's name, not in words: `--max-model-len 65536` is a context, `-ctk q8_0` a KV-cache precision,
`#SBATCH --nodes=16` a node count, `-b 1G -e 1G` a buffer size. Each rewrite below says one of those in
words (or drops it); a question typed in words is left as it is.
"""
from __future__ import annotations

import re

_DROP = ""


def _compiled(flags: int, *rewrites: tuple[str, str]) -> list[tuple[re.Pattern, str]]:
    return [(re.compile(pattern, flags), words) for pattern, words in rewrites]


_LINE_REWRITES = _compiled(re.I | re.M,
    # nvidia-smi -L: "GPU 0: NVIDIA B200 (UUID: GPU-1d7e…)" → "NVIDIA B200"
    (r"^\s*GPU \d+:\s*(NVIDIA [^(\n]+?)\s*\(UUID:[^)\n]*\)", r"\1"),
    # nvidia-smi's table: the name row keeps the name, the usage row (fan, °C, W, MiB in use / total) goes
    # (to the row's last bar only: a one-line paste goes on with the question)
    (r"^\|\s*\d+\s+(NVIDIA .+?)(?:\.\.\.)?\s+(?:On|Off)\s*\|[^\n]*\|", r"\1"),
    (r"^\|\s*(?:N/A|\d+%)\s+\d+C\s+P\d[^\n]*\|", _DROP),
    (r"^[|+=\- ]*(?:NVIDIA-SMI|GPU\s+Name|Fan\s+Temp|Processes:|No running processes).*$", _DROP),
    # nvidia-smi -q: "Product Name : NVIDIA L40S"; its brand and architecture lines name no part
    (r"^\s*Product Name\s*:\s*(.+)$", r"\1"), (r"^\s*Product (?:Brand|Architecture)\s*:.*$", _DROP),
    # rocm-smi: "GPU[0] : Card Series: AMD Instinct MI300X OAM"; vendor, SKU and banner lines go
    (r"^\s*GPU\[\d+\]\s*:\s*Card (?:Series|Model)\s*:\s*(.+)$", r"\1"),
    (r"^\s*GPU\[\d+\]\s*:\s*Card (?:Vendor|SKU)\s*:.*$", _DROP),
    (r"^\s*=+[^=\n]*=*\s*$", _DROP),
    # the command that printed it: "$ nvidia-smi -q | grep -A2 "Product Name"", "$ rocm-smi --showproductname"
    (r"^\s*\$?\s*(?:nvidia-smi|rocm-smi|amd-smi|hl-smi|xpu-smi|npu-smi)\b.*$", _DROP),
    # hl-smi's CSV: "name, memory.total [MiB]" and "HL-325L, 131072 MiB" (the card's memory, not a budget)
    (r"^\s*name,\s*memory\.total.*$", _DROP), (r"^\s*(HL-\d+\w*),\s*\d+\s*MiB\s*$", r"\1"),
    # nvidia-smi --query-gpu=name,memory.total --format=csv: "NVIDIA H100 80GB HBM3, 81559 MiB" (its own memory)
    (r"^\s*((?:NVIDIA|AMD|Tesla|Quadro)\b[^,\n]*),\s*\d+\s*MiB\b.*$", r"\1"),
    # ibstat: a port's "Rate: 400" is its speed in Gb/s
    (r"^\s*Rate\s*:\s*(\d+)\s*(?:\(.*\))?\s*$", r"\1 Gb/s"),
    (r"^\s*(?:State|Physical state|Base lid|SM lid|Port GUID|Link layer|CA type|Firmware version)\s*:.*$", _DROP),
    # accelerate's config YAML and Kubernetes' GPU request
    (r"^\s*num_machines\s*:\s*(\d+)\s*$", r"\1 nodes"), (r"^\s*num_processes\s*:\s*(\d+)\s*$", r"\1 GPUs"),
    (r"^\s*(?:machine_rank|main_process_port|gpu_ids|rdzv_backend|same_network)\s*:.*$", _DROP),
    (r"\bnvidia\.com/gpu\s*:\s*\"?(\d+)\"?", r"\1 GPUs"),
    # Kubernetes, KServe, Ray Serve: a serving replica is its own copy of the model (never data parallelism); the
    # node selector names the part; the pod's own memory request is host RAM
    (r"^\s*-?\s*(?:min|max)?_?(?:num_)?replicas\s*:\s*\"?\d+\"?\s*$", _DROP),
    (r"^\s*cloud\.google\.com/gke-accelerator\s*:\s*nvidia-(?:tesla-)?(\S+)\s*$", r"\1"),
    (r"^\s*nvidia\.com/gpu\.product\s*:\s*NVIDIA-(\S+)\s*$", r"\1"),
    (r"^\s*(?:memory|cpu|ephemeral-storage)\s*:\s*\"?[\d.]+\s*(?:[KMGT]i?)?\"?\s*$", _DROP),
    (r"^\s*(?:apiVersion|kind|metadata|name|image|spec|template|containers|resources|limits|requests|nodeSelector)\s*:"
     r"(?!\s*\d)[^\n]*$", _DROP),
    # nccl-tests: a rank's device line names its GPU; the header's settings and the check lines go
    (r"^#\s*Rank\s+\d+\s+Group\s+\d+\s+Pid\s+\d+\s+on\s+\S+\s+device\s+\d+\s+\[0x[0-9a-f]+\]\s+(.+)$", r"\1"),
    (r"^#\s*nThread\b.*$", _DROP), (r"^#\s*(?:Using devices|Out of bounds values.*|Avg bus bandwidth\s*:)\s*$", _DROP),
    (r"^#\s*Avg bus bandwidth\s*:\s*(\d[\d.]*)\s*$", r"busbw \1 GB/s"),
    # a result row: "size 1073741824, count 8388608, time 17533 us, algbw 61.24 GB/s" (the count is elements)
    (r"\bcount\s+\d+,?\s*", _DROP),
)

_COMMAND_REWRITES = _compiled(re.I,
    # a YAML args list: "[--model, meta-llama/…, --tensor-parallel-size, '4']", "- --max-num-seqs=16"
    (r"(--[a-z][\w-]*)\s*,\s*['\"]?([^,\]\s'\"]+)['\"]?", r"\1 \2"), (r"^\s*-\s+(?=--)", ""),
    # Slurm: "#SBATCH --nodes=16", "--gpus-per-node=8", "--gres=gpu:a100:4", "--time=30-00:00:00"
    (r"#SBATCH\s+", ""),
    (r"--nodes[= ](\d+)\b", r"\1 nodes"), (r"--gpus-per-node[= ](?:\w+:)?(\d+)\b", r"\1 GPUs per node"),
    (r"--gres[= ]gpu:(\w+):(\d+)\b", r"\2 \1 GPUs per node"), (r"--gres[= ]gpu:(\d+)\b", r"\1 GPUs per node"),
    (r"--(?:ntasks-per-node|cpus-per-task|job-name|output|error|account|qos|mem|time)[= ]\S+", ""),
    (r"--partition[= ](\S+)", r"partition \1"),
    (r"\b(srun|salloc|sbatch)\s+-N\s*(\d+)\b", r"\1 on \2 nodes"),
    # launchers: torchrun, deepspeed, accelerate, mpirun (nccl-tests' "-g 8" is GPUs per process)
    # ("on 2 nodes": a launcher's name before a bare figure reads as its version, "deepspeed 2")
    (r"--nnodes[= ](\d+)\b", r"on \1 nodes"), (r"--num_nodes[= ](\d+)\b", r"on \1 nodes"),
    (r"--nproc[_-]per[_-]node[= ](\d+)\b", r"\1 GPUs per node"), (r"--num_gpus[= ](\d+)\b", r"\1 GPUs per node"),
    (r"--num_processes[= ](\d+)\b", r"\1 GPUs"),
    (r"\bmpirun\s+-np\s+(\d+)(?:\s+-N\s+(\d+))?", r"mpirun \1 ranks"),
    (r"--(?:hostfile|master_addr|master_port|rdzv\S*|config_file)[= ]\S+", ""),
    # nccl-tests' size sweep: "-b 1G -e 1G" is one buffer size; a sweep ("-b 32M -e 4G -f 2") is none
    # (nccl-tests reads "1G" as 2^30 bytes)
    (r"(?<!\S)-b\s+(\d+[KMG])\s+-e\s+\1\b", r"a \1iB buffer"), (r"(?<!\S)-[bef]\s+\d+[KMG]?\b", ""),
    (r"\b(all_reduce|all_gather|reduce_scatter|alltoall|broadcast|reduce|sendrecv)_perf\b", r"\1"),
    # serving engines: vLLM, SGLang, llama.cpp (the command's name is no question: "serve" asks nothing)
    (r"\b(?:vllm\s+serve|python3?\s+-m\s+(?:vllm\.entrypoints\.[\w.]+|sglang\.launch_server)|(?:\./)?llama-(?:server|cli)|"
     r"ollama\s+(?:run|serve|pull))\b", ""),
    (r"--(?:tensor-parallel-size|tp-size|tp)[= ](\d+)\b", r"TP \1"), (r"(?<!\S)-tp\s+(\d+)\b", r"TP \1"),
    (r"--(?:max-model-len|context-length|ctx-size)[= ](\d+)\b", r"context \1"), (r"(?<!\S)-c\s+(\d+)\b", r"context \1"),
    (r"--(?:max-num-seqs|max-running-requests|parallel|max-batch-size)[= ](\d+)\b", r"\1 sequences"),
    # Hugging Face TGI: shards are tensor-parallel GPUs, a request's total tokens its context
    (r"\btext-generation-launcher\b", ""), (r"--num-shard[= ](\d+)\b", r"TP \1"),
    (r"--max-total-tokens[= ](\d+)\b", r"context \1"), (r"--model-id[= ]", ""),
    (r"--kv-cache-dtype[= ](\w+)", r"KV cache \1"),
    (r"--quantization[= ]fp8\b", "fp8 weights"), (r"--quantization[= ](?:awq|gptq)\w*", "int4 weights"),
    (r"(?<!\S)-ctk\s+(\w+)(?:\s+-ctv\s+\1)?", r"KV cache \1"), (r"(?<!\S)-ctv\s+\w+", ""),
    (r"\bq8_0\b(?=\s*(?:kv|cache|$))", "int8"), (r"(?<=KV cache )q8_0\b", "int8"), (r"(?<=KV cache )q4_0\b", "int4"),
    (r"--(?:gpu-memory-utilization|mem-fraction-static|swap-space|port|host|seed|max-num-batched-tokens)[= ]\S+", ""),
    (r"(?<!\S)-(?:ngl|t|ub)\s+\d+\b|(?<!\S)--?(?:fa|host|port)\b(?:\s+[\d.:]+)?", ""),
    (r"--(?:trust-remote-code|enforce-eager|bf16|fp16|sequence-parallel|use-flash-attn)\b", ""),
    # profilers: their options and a benchmark's GEMM shape ("--m 8192 --n 8192 --k 8192") are no inputs
    (r"\b(?:rocprofv3|rocprof|ncu|nsys(?:\s+profile)?)\b(?:\s+--?[\w-]+(?:[= ](?!--)[^\s-]\S*)?)*(?:\s+--(?=\s))?", ""),
    (r"--[mnk][= ]\d+\b", ""),
    # TensorRT-LLM's quantize: the checkpoint's weights are in --qformat, not the --dtype they were read in
    (r"--dtype[= ]\w+(?=[^\n]*--qformat)", ""), (r"--qformat[= ](fp8|int8|int4)\w*", r"\1 weights"),
    (r"--dtype[= ](\w+)", r"\1"), (r"--train_tokens[= ](\S+)", r"\1 tokens"),
    # Megatron: parallel sizes, sequence length, micro batch; the global batch and the run's length are no memory input
    (r"--tensor-model-parallel-size[= ](\d+)\b", r"TP \1"), (r"--pipeline-model-parallel-size[= ](\d+)\b", r"PP \1"),
    (r"--seq-length[= ](\d+)\b", r"context \1"), (r"--micro-batch-size[= ](\d+)\b", r"micro batch \1"),
    (r"--(?:global-batch-size|train-iters|train-samples|lr-decay-iters|lr-warmup-iters)[= ]\d+\b", ""),
    # the model's shape ("--num-layers 80 --hidden-size 8192 … --ffn-hidden-size 28672"): the model is named, its
    # shape is no context or batch
    (r"--(?:num-layers|hidden-size|num-attention-heads|num-query-groups|ffn-hidden-size|max-position-embeddings|"
     r"kv-channels|padded-vocab-size|vocab-size)[= ]\d+\b|--group-query-attention\b", ""),
    (r"--recompute-activations\b", "selective recompute"),
    (r"--recompute-granularity[= ](selective|full)\b", r"\1 recompute"), (r"--(?:log|save|eval)-interval[= ]\d+\b", ""),
    # NCCL's environment: NCCL_ALGO=Ring forces one ring over every rank (no two-level ring); the rest are no inputs
    (r"\b(?:export\s+)?NCCL_ALGO=Ring\b", "flat ring"), (r"\b(?:export\s+)?NCCL_ALGO=Tree\b", "tree"),
    (r"\b(?:export\s+)?NCCL_[A-Z_]+=\S+", ""),
    # Cloud TPU: "--accelerator-type=v5litepod-256" is 256 v5e chips; the software version names no chip
    (r"--accelerator-type[= ]v5litepod-(\d+)\b", r"\1 chips of TPU v5e"),
    (r"--accelerator-type[= ](v[56]e)-(\d+)\b", r"\2 chips of TPU \1"),
    (r"--(?:version|zone|project|runtime-version)[= ]\S+", ""),
    (r"\bgcloud\s+compute\s+tpus\s+(?:tpu-vm\s+)?(?:create|describe)\s+\S+", ""),
    # an Ollama tag: "llama3.1:70b-instruct-q4_K_M" → "llama3.1 70b q4_K_M"
    (r"\b([a-z][a-z-]*\d[\d.]*):(\d+(?:\.\d+)?b)(?:-(?:instruct|chat|text))?(?:-(q\d\w*|fp16|bf16))?\b", r"\1 \2 \3"),
    # a model by its Hugging Face id: "deepseek-ai/DeepSeek-R1" → "DeepSeek-R1"; a GGUF file by its name
    (r"(?:\./)?(?:models/)?([\w.-]+?)[.-]((?:I?Q\d\w*|[bf]?f16|f32))\.gguf\b", r"\1 \2"),
    (r"(?:\./)?(?:models/)?([\w.-]+)\.gguf\b", r"\1"), (r"--model(?:-path|_name_or_path)?[= ]", ""),
    (r"(?<![\w/.-])-m\s+(?=\S)", ""), (r"\b(?:[\w-]+/)+(?=[\w.-]*\d+(?:\.\d+)?[bB]\b|DeepSeek|gpt-oss|Llama|Qwen|Mistral|Mixtral)", ""),
)
# DeepSpeed's JSON: the stage and the precision are inputs; buckets, accumulation and clipping are not
_JSON_REWRITES = _compiled(re.I,
    (r"\"zero_optimization\"\s*:\s*\{\s*\"stage\"\s*:\s*(\d)", r"ZeRO stage \1 {"),
    (r"\"(bf16|fp16)\"\s*:\s*\{\s*\"enabled\"\s*:\s*true\s*\}", r"\1"),
    (r"\"(?:reduce_bucket_size|allgather_bucket_size|stage3_\w+|gradient_accumulation_steps|gradient_clipping|"
     r"train_micro_batch_size_per_gpu|train_batch_size|steps_per_print|overlap_comm|contiguous_gradients)\"\s*:\s*[\w.\"]+,?",
     ""),
)
_TRAINING_JOB = re.compile(r"\bkind\s*:\s*(?:PyTorchJob|MPIJob|TFJob|JobSet)\b|^\s*Worker\s*:", re.I | re.M)
_WORKERS = re.compile(r"^\s*replicas\s*:\s*\"?(\d+)\"?\s*$", re.I | re.M)
_TIME_LIMIT = re.compile(r"--time[= ](\d+)-\d\d:\d\d:\d\d\b")
_ASKS_DEADLINE = re.compile(r"\b(?:time limit|deadline|finish|in time|wall ?time|time budget)\b", re.I)
_EMPTY_LINES = re.compile(r"\n(?:[ \t,;|]*\n)+")  # what the drops left of a line
_BLANKS = re.compile(r"[ \t]{2,}|[ \t]*,[ \t]*(?=,)")
_SLURM_LINES = re.compile(r"\s*\n(?=\s*#SBATCH)")
_PER_PROCESS = re.compile(r"(?<!\S)-g\s+(\d+)\b")
_LOOKS_PASTED = re.compile(r"^\s*`*\s*(?:[|#$]|GPU[\[ ]\d|\./|vllm |python|srun|mpirun|torchrun|deepspeed|accelerate|gcloud|"
                           r"apiVersion:|kind:|spec:|replicas:|nodeSelector:|"
                           r"llama-(?:server|cli)|text-generation-launcher|"
                           r"Product Name|name,|HL-|Rate:|num_|\{|\")|--[a-z]|\w:\d+b\b|nvidia\.com/gpu|MiB\s*$|\w_perf\s+-|\.gguf\b|"
                           r"\b(?:meta-llama|mistralai|mistral-community|Qwen|deepseek-ai|google|openai|microsoft|nvidia|"
                           r"unsloth|TheBloke|hugging-quants|RedHatAI|neuralmagic|NousResearch)/",
                           re.I | re.M)


_NCCL_HEADER = re.compile(r"^#\s*size\s+count\s+type\s+redop\s+root\s+time\s+algbw\s+busbw.*$", re.I | re.M)
_NCCL_UNITS = re.compile(r"^#\s*\(B\)\s+\(elements\).*$|^#\s+out-of-place\s+in-place\s*$", re.I | re.M)
_NCCL_ROW = re.compile(r"^\s*(\d+)\s+\d+\s+\w+\s+\w+\s+-?\d+\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\S+(?:\s+[\d.]+){0,3}.*$",
                       re.M)


def _nccl_table(text: str) -> str:
    """nccl-tests' result table → its last row in words (the largest size of a sweep; out-of-place columns)."""
    if not _NCCL_HEADER.search(text):
        return text
    rows = _NCCL_ROW.findall(text)
    text = _NCCL_ROW.sub("", _NCCL_UNITS.sub("", _NCCL_HEADER.sub("", text)))
    if not rows:
        return text
    size, time_us, algbw, busbw = rows[-1]
    return f"size {size} bytes, time {time_us} us, algbw {algbw} GB/s, busbw {busbw} GB/s\n" + text


_LISTED = re.compile(r"^\s*GPU\s?\[?(\d+)\]?\s*:\s*(?:Card Series\s*:\s*)?((?:NVIDIA|AMD)\b[^(\n]*?)\s*(?:\(UUID:[^)\n]*\))?\s*$",
                     re.I | re.M)


def _gpu_list(text: str) -> str:
    """nvidia-smi -L or rocm-smi's rows of one part, "GPU 0: … GPU 7: …" → "8 NVIDIA B200 GPUs" (the count of the list)."""
    rows = _LISTED.findall(text)
    if not rows or len({name.strip().lower() for _, name in rows}) != 1:
        return text
    first = _LISTED.search(text)
    count = max(int(i) for i, _ in rows) + 1
    text = _LISTED.sub("", text)
    return f"{text[:first.start()]}{count} {rows[0][1].strip()} GPUs\n{text[first.start():]}"


def as_stated(text: str) -> str:
    """The question with pasted tool output and command lines said in words (unchanged if it has none)."""
    if not _LOOKS_PASTED.search(text):
        return text
    # nccl-tests' "-g 8" is GPUs per process: the GPU count of a lone process, a factor under mpirun's "-np"
    text = _gpu_list(_nccl_table(text))
    text = _SLURM_LINES.sub(", ", text)  # one job's settings are one statement, not a line each
    text = _PER_PROCESS.sub("" if "mpirun" in text else r"\1 GPUs", text)
    # a job's time limit ("--time=30-00:00:00") is a deadline only when the question asks about finishing in it
    text = _TIME_LIMIT.sub(r"a deadline of \1 days" if _ASKS_DEADLINE.search(text) else "", text)
    # a training job's worker replicas are its nodes (PyTorchJob, MPIJob: one pod per node)
    if _TRAINING_JOB.search(text):
        text = _WORKERS.sub(r"\1 nodes", text)
    for pattern, words in _LINE_REWRITES + _COMMAND_REWRITES + _JSON_REWRITES:
        text = pattern.sub(words, text)
    return _BLANKS.sub(" ", _EMPTY_LINES.sub("\n", text)).strip()
