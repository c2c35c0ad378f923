#pragma once

// Signatures of kernel libraries whose source gets pasted into submissions (WRAP006).
// Each library has independent kinds of signal:
//  - license marks: text that appears on the library's copyright / SPDX header lines (a line
//    is a license line only when it also says "Copyright", "SPDX" or "(c)"), so a citation
//    such as "inspired by FlashAttention-2 (Tri Dao)" is not one;
//  - phrases: distinctive sentences of the library's module docstrings;
//  - definitions: names of functions, kernels and classes the library defines, specific
//    enough that a solution writing its own kernel does not arrive at them independently
//    (generic names such as `_fwd_kernel`, `_attn_fwd` or the problem's own op name are
//    left out on purpose); names a solution might choose for its own code are kept apart as
//    `common` and only support stronger evidence.
// Sources: the public repositories as of 2025/2026 releases (paths given per entry).

#include <array>
#include <span>
#include <string_view>

namespace kbaudit::rules::wrap006 {

struct LibrarySignature {
  std::string_view id;      ///< short name used in messages
  std::string_view display; ///< what to call it in a message
  /// Module names as problems and overlays write them (`forbiddenLibraries`, problem.yaml).
  std::span<const std::string_view> modules;
  std::span<const std::string_view> licenseMarks;
  std::span<const std::string_view> phrases;
  std::span<const std::string_view> definitions;
  /// Library names a solution may plausibly choose for its own code ("flash_attn_func",
  /// "fused_moe_kernel"): they add to other evidence but never count on their own.
  std::span<const std::string_view> common;
};

// flash-linear-attention (github.com/fla-org/flash-linear-attention): every file under fla/
// starts with "# Copyright (c) 2023-2025, Songlin Yang, Yu Zhang" (later years vary);
// names from fla/ops/utils/{cumsum,index,solve_tril}.py, fla/ops/common/chunk_*.py,
// fla/ops/gla/chunk.py, fla/ops/kda/*.py, fla/ops/gated_delta_rule/*.py, fla/utils.py.
inline constexpr std::string_view kFlaModules[] = {"fla", "flash_linear_attention"};
inline constexpr std::string_view kFlaLicense[] = {"Songlin Yang", "fla-org/flash-linear-attention"};
inline constexpr std::string_view kFlaPhrases[] = {"fla-org/flash-linear-attention"};
inline constexpr std::string_view kFlaDefinitions[] = {
    "prepare_chunk_indices",
    "prepare_chunk_offsets",
    "prepare_cu_seqlens",
    "check_shared_mem",
    "input_guard",
    "autocast_custom_fwd",
    "autocast_custom_bwd",
    "tensor_cache",
    "chunk_local_cumsum_scalar",
    "chunk_local_cumsum_vector",
    "chunk_local_cumsum_scalar_kernel",
    "chunk_local_cumsum_vector_kernel",
    "chunk_global_cumsum_scalar_kernel",
    "chunk_global_cumsum_vector_kernel",
    "solve_tril_16x16_kernel",
    "merge_16x16_to_32x32_inverse_kernel",
    "merge_16x16_to_64x64_inverse_kernel",
    "chunk_scaled_dot_kkt_fwd_kernel",
    "recompute_w_u_fwd_kernel",
    "recompute_w_u_fwd_kda_kernel",
    "prepare_wy_repr_bwd",
    "prepare_wy_repr_bwd_kda_kernel",
    "chunk_gated_delta_rule_fwd_h",
    "chunk_gated_delta_rule_bwd_dhu",
    "chunk_gated_delta_rule_fwd_kernel_h_blockdim64",
    "chunk_gated_delta_rule_bwd_kernel_dhu_blockdim64",
    "chunk_fwd_kernel_o",
    "chunk_gla_fwd_o_gk",
    "chunk_gla_fwd_intra_gk",
    "chunk_gla_fwd_kernel_o",
    "chunk_gla_fwd_A_kernel_intra_sub_inter",
    "chunk_gla_fwd_A_kernel_intra_sub_intra",
    "chunk_gla_fwd_A_kernel_intra_sub_intra_split",
    "chunk_gla_fwd_A_kernel_intra_sub_intra_merge",
    "chunk_gla_bwd_kernel_intra",
    "chunk_gla_bwd_kernel_dA",
    "chunk_gla_bwd_kernel_dv",
    "chunk_gla_bwd_kernel_inter",
    "kda_fwd_kernel_intra_sub_chunk",
    "kda_fwd_kernel_inter_solve_fused",
    "kda_fwd_kernel_intra_token_parallel",
    "kda_bwd_kernel_intra",
    "kda_fwd_intra_token_parallel",
    "kda_bwd_intra",
    "fused_recurrent_gated_delta_rule_fwd_kernel",
    "fused_recurrent_kda_fwd_kernel",
    "l2norm_fwd_kernel1",
    "ChunkKDAFunction",
    "ChunkGatedDeltaRuleFunction",
    "ChunkGLAFunction",
    "FusedRecurrentFunction",
};
inline constexpr std::string_view kFlaCommon[] = {
    "prepare_lens", "solve_tril",        "chunk_local_cumsum", "chunk_global_cumsum",
    "chunk_fwd_o",  "l2norm_fwd_kernel", "recompute_w_u_fwd",  "chunk_scaled_dot_kkt_fwd",
};

// flash-attention (github.com/Dao-AILab/flash-attention): "Copyright (c) 2023, Tri Dao." in
// flash_attn/*.py, csrc/flash_attn/src/*.h; flash_attn/flash_attn_interface.py,
// flash_attn/flash_attn_triton.py (module docstring "*Experimental* implementation of
// FlashAttention in Triton."), flash_attn/ops/triton/*.py.
inline constexpr std::string_view kFlashAttnModules[] = {"flash_attn", "flash_attn_interface"};
inline constexpr std::string_view kFlashAttnLicense[] = {"Tri Dao"};
inline constexpr std::string_view kFlashAttnPhrases[] = {"*Experimental* implementation of FlashAttention in Triton"};
inline constexpr std::string_view kFlashAttnDefinitions[] = {
    "_flash_attn_backward",
    "_flash_attn_varlen_forward",
    "_flash_attn_varlen_backward",
    "flash_attn_qkvpacked_func",
    "flash_attn_kvpacked_func",
    "FlashAttnFunc",
    "FlashAttnQKVPackedFunc",
    "FlashAttnVarlenFunc",
    "_bwd_preprocess_do_o_dot",
    "_bwd_store_dk_dv",
    "_bwd_kernel_one_col_block",
    "flash_fwd_splitkv_kernel",
    "flash_fwd_splitkv_combine_kernel",
    "run_mha_fwd",
    "run_mha_fwd_splitkv_dispatch",
    "compute_attn_1rowblock",
    "compute_attn_1rowblock_splitkv",
};
inline constexpr std::string_view kFlashAttnCommon[] = {
    "flash_attn_func", "flash_attn_varlen_func", "flash_attn_with_kvcache", "flash_fwd_kernel", "_flash_attn_forward",
};

// vLLM (github.com/vllm-project/vllm): "SPDX-FileCopyrightText: Copyright contributors to the
// vLLM project" on every file; csrc/attention/attention_kernels.cuh (paged_attention_*),
// csrc/cache_kernels.cu, model_executor/layers/fused_moe/fused_moe.py, csrc/moe/*.cu.
inline constexpr std::string_view kVllmModules[] = {"vllm"};
inline constexpr std::string_view kVllmLicense[] = {"vLLM project", "vllm-project", "The vLLM team"};
inline constexpr std::string_view kVllmDefinitions[] = {

    "paged_attention_v2_reduce_kernel",
    "paged_attention_v1_launcher",
    "paged_attention_v2_launcher",
    "reshape_and_cache_flash_kernel",
    "fused_moe_kernel_gptq_awq",
    "moe_align_block_size_stage1",
    "sgl_moe_align_block_size_kernel",
    "write_zeros_to_output",
    "try_get_optimal_moe_config",
    "get_config_file_name",
    "topkGatingSoftmax",
    "kernel_unified_attention_2d",
    "kernel_paged_attention_2d",
    "chunked_prefill_paged_decode",
};
inline constexpr std::string_view kVllmCommon[] = {
    "paged_attention_kernel", "paged_attention_v1_kernel", "paged_attention_v2_kernel",
    "fused_moe_kernel",       "invoke_fused_moe_kernel",   "moe_align_block_size_kernel",
    "topk_softmax",           "fused_experts_impl",        "reshape_and_cache_kernel",
};

// FlashInfer (github.com/flashinfer-ai/flashinfer): "Copyright (c) 2023 by FlashInfer team."
// in include/flashinfer/*.cuh and python files; attention/decode.cuh, prefill.cuh.
inline constexpr std::string_view kFlashInferModules[] = {"flashinfer"};
inline constexpr std::string_view kFlashInferLicense[] = {"FlashInfer team"};
inline constexpr std::string_view kFlashInferDefinitions[] = {
    "BatchDecodeWithPagedKVCacheKernel",   "SingleDecodeWithKVCacheKernel",   "BatchPrefillWithPagedKVCacheKernel",
    "BatchPrefillWithRaggedKVCacheKernel", "SinglePrefillWithKVCacheKernel",  "BatchDecodeWithPagedKVCacheDispatched",
    "SingleDecodeWithKVCacheDispatched",   "VariableLengthMergeStatesKernel",

};
inline constexpr std::string_view kFlashInferCommon[] = {
    "compute_qk",
    "update_local_state",
    "sync_state",
    "MergeStatesKernel",
};

// SGLang (github.com/sgl-project/sglang) and the lightllm decode kernels it (and vLLM) carry:
// "Copyright 2023-2024 SGLang Team" headers; srt/layers/attention/triton_ops/decode_attention.py,
// extend_attention.py.
inline constexpr std::string_view kSglangModules[] = {"sglang", "sgl_kernel"};
inline constexpr std::string_view kSglangLicense[] = {"SGLang Team"};
inline constexpr std::string_view kSglangPhrases[] = {"Memory-efficient attention for decoding",
                                                      "It supports page size = 1"};
inline constexpr std::string_view kSglangDefinitions[] = {
    "_fwd_grouped_kernel_stage1",  "_decode_att_m_fwd",           "_decode_grouped_att_m_fwd",
    "_decode_softmax_reducev_fwd", "decode_attention_fwd_normal", "decode_attention_fwd_grouped",
};
inline constexpr std::string_view kSglangCommon[] = {
    "_fwd_kernel_stage1", "_fwd_kernel_stage2", "decode_attention_fwd", "extend_attention_fwd", "redundant_attention",
};

// Liger-Kernel (github.com/linkedin/Liger-Kernel): src/liger_kernel/ops/{swiglu,rms_norm,rope,
// cross_entropy,geglu,layer_norm}.py.
inline constexpr std::string_view kLigerModules[] = {"liger_kernel"};
inline constexpr std::string_view kLigerLicense[] = {"LinkedIn Corporation"};
inline constexpr std::string_view kLigerDefinitions[] = {
    "_swiglu_forward_kernel",
    "_swiglu_backward_kernel",
    "LigerSiLUMulFunction",
    "_rms_norm_forward_kernel",
    "_rms_norm_backward_kernel",
    "LigerRMSNormFunction",
    "_triton_rope",
    "LigerRopeFunction",
    "liger_cross_entropy_kernel",
    "LigerCrossEntropyFunction",
    "_geglu_tanh_forward_kernel",
    "LigerGELUMulFunction",
    "_layer_norm_forward_kernel",
    "LigerLayerNormFunction",
};
inline constexpr std::string_view kLigerCommon[] = {
    "swiglu_forward",
    "swiglu_backward",
    "rms_norm_forward",
    "calculate_settings",
};

// Unsloth (github.com/unslothai/unsloth): "Copyright 2023-present Daniel Han-Chen & the Unsloth
// team." in unsloth/kernels/*.py.
inline constexpr std::string_view kUnslothModules[] = {"unsloth"};
inline constexpr std::string_view kUnslothLicense[] = {"Unsloth team", "Daniel Han-Chen"};
inline constexpr std::string_view kUnslothDefinitions[] = {
    "_fg_kernel",
    "swiglu_fg_kernel",
    "_DWf_DW_dfg_kernel",
    "swiglu_DWf_DW_dfg_kernel",
    "_rms_layernorm_forward",
    "_rms_layernorm_backward",
    "Fast_RMS_Layernorm",
    "_rope_embedding",
    "Fast_RoPE_Embedding",
    "_cross_entropy_forward",
    "Fast_CrossEntropyLoss",
    "MAX_FUSED_SIZE_calculate_settings",
};
inline constexpr std::string_view kUnslothCommon[] = {
    "fast_dequantize",
    "fast_gemv",
    "fast_rms_layernorm",
    "fast_linear_forward",
};

// xformers (github.com/facebookresearch/xformers): xformers/ops/fmha/triton_splitk.py and
// _triton/*.py (the Meta copyright header is shared with PyTorch, so names only).
inline constexpr std::string_view kXformersModules[] = {"xformers"};
inline constexpr std::string_view kXformersDefinitions[] = {
    "_fwd_kernel_splitK",
    "_splitK_reduce",
    "_splitK_reduce_varargs",
    "_splitK_reduce_varargs_backward",
    "load_dequantize_k_v_group",
    "cast_uint32_to_half2",
    "FwOp_S1",
    "FwOp_Map",
    "_memory_efficient_attention_forward",
};
inline constexpr std::string_view kXformersCommon[] = {
    "dequantize",
    "get_split_k",
    "memory_efficient_attention_forward",
};

// Marlin (github.com/IST-DASLab/marlin): "Copyright (C) Marlin.2024 Elias Frantar" in
// marlin/marlin_cuda_kernel.cu; the same kernel lives on in vLLM's gptq_marlin.
inline constexpr std::string_view kMarlinModules[] = {"marlin", "marlin_kernel", "marlin_cuda"};
inline constexpr std::string_view kMarlinLicense[] = {"Elias Frantar", "Marlin.2024"};
inline constexpr std::string_view kMarlinDefinitions[] = {
    "marlin_cuda",
    "gptq_marlin_gemm",
    "cp_async4_pred_zfill",
    "mul_marlin",
};
inline constexpr std::string_view kMarlinCommon[] = {
    "Marlin", "marlin_mm", "barrier_acquire", "barrier_release", "cp_async4_pred", "cp_async4_stream",
};

// ThunderKittens (github.com/HazyResearch/ThunderKittens): kittens.cuh and its prototype headers.
inline constexpr std::string_view kThunderKittensModules[] = {"thunderkittens", "kittens"};
inline constexpr std::string_view kThunderKittensLicense[] = {"HazyResearch"};
inline constexpr std::string_view kThunderKittensDefinitions[] = {
    "mma_AB",
    "mma_ABt",
    "mma_AtB",
    "mma_AtBt",

};
inline constexpr std::string_view kThunderKittensCommon[] = {
    "load_async", "store_async", "tma_load_async", "expect_bytes", "arrive_and_wait",
};

inline constexpr std::array<LibrarySignature, 10> kLibraries = {{
    {"fla", "flash-linear-attention (fla)", kFlaModules, kFlaLicense, kFlaPhrases, kFlaDefinitions, kFlaCommon},
    {"flash_attn", "flash-attention", kFlashAttnModules, kFlashAttnLicense, kFlashAttnPhrases, kFlashAttnDefinitions,
     kFlashAttnCommon},
    {"vllm", "vLLM", kVllmModules, kVllmLicense, {}, kVllmDefinitions, kVllmCommon},
    {"flashinfer", "FlashInfer", kFlashInferModules, kFlashInferLicense, {}, kFlashInferDefinitions, kFlashInferCommon},
    {"sglang", "SGLang / lightllm Triton attention", kSglangModules, kSglangLicense, kSglangPhrases, kSglangDefinitions,
     kSglangCommon},
    {"liger_kernel", "Liger-Kernel", kLigerModules, kLigerLicense, {}, kLigerDefinitions, kLigerCommon},
    {"unsloth", "Unsloth", kUnslothModules, kUnslothLicense, {}, kUnslothDefinitions, kUnslothCommon},
    {"xformers", "xformers", kXformersModules, {}, {}, kXformersDefinitions, kXformersCommon},
    {"marlin", "Marlin", kMarlinModules, kMarlinLicense, {}, kMarlinDefinitions, kMarlinCommon},
    {"thunderkittens",
     "ThunderKittens",
     kThunderKittensModules,
     kThunderKittensLicense,
     {},
     kThunderKittensDefinitions,
     kThunderKittensCommon},
}};

} // namespace kbaudit::rules::wrap006
