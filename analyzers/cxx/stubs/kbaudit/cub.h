// kbaudit stub: CUB block/warp/device collectives.
#pragma once
#include <cuda_runtime.h>
namespace cub {
struct NullType {};
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE };
struct Sum { template <class T> KB_HD T operator()(const T &a, const T &b) const { return a + b; } };
struct Max { template <class T> KB_HD T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
struct Min { template <class T> KB_HD T operator()(const T &a, const T &b) const { return a < b ? a : b; } };
template <class K, class V> struct KeyValuePair { K key; V value; };
struct ArgMax {};
struct ArgMin {};
#define KB_CUB_COLLECTIVE(NAME, PARAMS)                                                     \
  template <PARAMS> class NAME {                                                            \
  public:                                                                                   \
    struct TempStorage {};                                                                  \
    KB_D NAME();                                                                            \
    KB_D NAME(TempStorage &);                                                               \
    template <class... X> KB_D T Sum(X &&...) { return T(); }                               \
    template <class... X> KB_D T Reduce(X &&...) { return T(); }                            \
    template <class... X> KB_D void InclusiveSum(X &&...) {}                                \
    template <class... X> KB_D void ExclusiveSum(X &&...) {}                                \
    template <class... X> KB_D void InclusiveScan(X &&...) {}                               \
    template <class... X> KB_D void ExclusiveScan(X &&...) {}                               \
    template <class... X> KB_D void Sort(X &&...) {}                                        \
    template <class... X> KB_D void SortDescending(X &&...) {}                              \
    template <class... X> KB_D void SortBlockedToStriped(X &&...) {}                        \
    template <class... X> KB_D void SortDescendingBlockedToStriped(X &&...) {}              \
    template <class... X> KB_D void Load(X &&...) {}                                        \
    template <class... X> KB_D void Store(X &&...) {}                                       \
  };
#define KB_COMMA ,
KB_CUB_COLLECTIVE(BlockReduce, class T KB_COMMA int B KB_COMMA BlockReduceAlgorithm A = BLOCK_REDUCE_WARP_REDUCTIONS KB_COMMA int Y = 1 KB_COMMA int Z = 1 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(BlockScan, class T KB_COMMA int B KB_COMMA BlockScanAlgorithm A = BLOCK_SCAN_RAKING KB_COMMA int Y = 1 KB_COMMA int Z = 1 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(WarpReduce, class T KB_COMMA int W = 32 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(WarpScan, class T KB_COMMA int W = 32 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(BlockLoad, class T KB_COMMA int B KB_COMMA int I KB_COMMA BlockLoadAlgorithm A = BLOCK_LOAD_DIRECT KB_COMMA int Y = 1 KB_COMMA int Z = 1 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(BlockStore, class T KB_COMMA int B KB_COMMA int I KB_COMMA BlockStoreAlgorithm A = BLOCK_STORE_DIRECT KB_COMMA int Y = 1 KB_COMMA int Z = 1 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(BlockRadixSort, class T KB_COMMA int B KB_COMMA int I KB_COMMA class V = NullType KB_COMMA int RADIX_BITS = 4 KB_COMMA bool MEMOIZE = true KB_COMMA int SMEM = 0 KB_COMMA int Y = 1 KB_COMMA int Z = 1 KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(WarpMergeSort, class T KB_COMMA int I KB_COMMA int W = 32 KB_COMMA class V = NullType KB_COMMA int ARCH = 0)
KB_CUB_COLLECTIVE(BlockMergeSort, class T KB_COMMA int B KB_COMMA int I KB_COMMA class V = NullType KB_COMMA int Y = 1 KB_COMMA int Z = 1)
#undef KB_COMMA
#undef KB_CUB_COLLECTIVE
#define KB_CUB_DEVICE(NAME)                                                                 \
  struct NAME {                                                                             \
    template <class... A> static cudaError_t Sum(A &&...) { return cudaSuccess; }           \
    template <class... A> static cudaError_t Max(A &&...) { return cudaSuccess; }           \
    template <class... A> static cudaError_t Min(A &&...) { return cudaSuccess; }           \
    template <class... A> static cudaError_t ArgMax(A &&...) { return cudaSuccess; }        \
    template <class... A> static cudaError_t Reduce(A &&...) { return cudaSuccess; }        \
    template <class... A> static cudaError_t InclusiveSum(A &&...) { return cudaSuccess; }  \
    template <class... A> static cudaError_t ExclusiveSum(A &&...) { return cudaSuccess; }  \
    template <class... A> static cudaError_t SortPairs(A &&...) { return cudaSuccess; }     \
    template <class... A> static cudaError_t SortKeys(A &&...) { return cudaSuccess; }      \
    template <class... A> static cudaError_t SortPairsDescending(A &&...) { return cudaSuccess; } \
    template <class... A> static cudaError_t SortKeysDescending(A &&...) { return cudaSuccess; } \
  };
KB_CUB_DEVICE(DeviceReduce)
KB_CUB_DEVICE(DeviceScan)
KB_CUB_DEVICE(DeviceRadixSort)
KB_CUB_DEVICE(DeviceSegmentedReduce)
KB_CUB_DEVICE(DeviceSegmentedRadixSort)
KB_CUB_DEVICE(DeviceSegmentedSort)
#undef KB_CUB_DEVICE
} // namespace cub
