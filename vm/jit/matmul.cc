// The tensor JIT's f32 matrix product (jit.h MatMulF32): a register-tiled
// microkernel generated with asmjit and a C++ driver that packs and blocks.
//
// Bitwise equality with kernels/matmul.cc: every output is one accumulator
// lane that starts at +0.0f and takes one vfmadd231ps per k, in ascending k.
// Lanes never mix, so the tile shape, the packing and the blocking reorder
// only operations on different outputs. The k dimension is blocked (KC) for
// the caches, but a k block never starts a new chain: the microkernel stores
// its accumulators to the output and the next k block loads them back and
// goes on (a float store and load are exact). Threads split the m or the n
// loop of the driver, never the k loop (see Threads below).
//
// The accumulator starts at +0.0f, not at the first product: fma(a, b, +0.0f)
// turns a product of -0.0f into +0.0f exactly as the reference does.
//
// NaN payloads: when several operands of one step are NaN, which payload
// comes out depends on the instruction form. The reference calls std::fma,
// i.e. glibc's fmaf, which on FMA hardware is `vfmadd213ss x, y, z`: the
// form computes y * x + z. On the CPUs we measured (AMD Zen) every form
// returns the first NaN in the order of its formula: multiplicand,
// multiplicand, addend, as the form's digits read (231: src2 * src3 + src1).
// So fmaf(x, y, z) gives y's NaN before x's before z's, and the microkernel
// emits `vfmadd231ps acc, b, a` (b[k, j] as the VEX.vvvv operand, the
// broadcast a[i, k] as r/m), whose formula b * a + acc has the same order.
// The tests compare payloads bit for bit, so a CPU or a libm that orders
// NaNs otherwise shows up there.
//
// Packing (the usual GotoBLAS/BLIS scheme): B is copied into panels of NR
// columns, contiguous per k (kc x NR), and A into panels of MR rows, MR
// values per k. Panels are padded with zeros to full tiles; the padded
// lanes compute outputs that are dropped. A tile that sticks out of the
// output goes through a scratch tile (its valid part copied in and out), so
// the microkernel always stores full vectors and never needs masks.
//
// Loops, outermost first: n by NC, k by KC (pack the B block), m by MC (pack
// the A block, kept in L2), then NR panels of B against MR panels of A. The
// k blocks are balanced (k split into equal parts of at most KC), so that no
// short last block pays the partial-sum reload for little work.
//
// Threads (a pool with more than one thread, a product of at least
// kMinRangeFlops per range): either the columns are split (each range runs
// the whole driver on its columns, packing its own B and A blocks), or,
// when there are too few columns for the threads, the rows (the B block is
// packed once, its panels by the threads, and shared read-only; each range
// of rows packs its own A blocks). Each range has its own A block, scratch tile
// (and B block) in one buffer kept in the Jit, grown on demand, so a steady
// state allocates nothing; the microkernel is fetched before any loop.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/jit/codegen.h"
#include "vm/jit/jit.h"
#include "vm/thread_pool.h"

namespace alea::vm::jit {
namespace {

// acc[MR x NR] (+)= sum over kc of a_panel[k] (x) b_panel[k]; then stored to
// c (row stride ldc floats). load != 0: the accumulators start from c (the
// partial sums of the previous k block), else from +0.0f. kc >= 1.
using MicroKernelFn = void (*)(const float* a_panel, const float* b_panel, float* c, int64_t ldc,
                               int64_t kc, int64_t load);

// The shape of one ISA's microkernel and its cache blocking.
struct Plan {
  int mr;      // rows of the tile: one broadcast of a per row and k
  int nv;      // vectors per row of the tile; NR = nv * lanes
  int lanes;   // 8 (ymm) or 16 (zmm)
  int unroll;  // k steps per loop iteration
  int64_t kc;  // largest k block
  int64_t mc;  // m block: the packed A block mc x kc stays in L2
  int64_t nc;  // n block: the packed B block kc x nc stays in L3
  int nr() const { return nv * lanes; }
};

// AVX2: 6 x 16, 12 ymm accumulators + 2 of b + 1 broadcast = 15 of 16
// registers. AVX-512: 6 x 64, 24 zmm accumulators + 4 of b + 1 broadcast;
// 6 x 64 measured a little faster than 8 x 48 and 14 x 32 on Zen (fewer
// loads per FMA), and its 64-column panels divide the usual sizes.
// The k block is large: storing and reloading the partial sums of every
// output costs more than streaming the B panel from L2 instead of L1 (both
// paths ran ~10% faster at 1024 x 1024 with one k block than with 256).
Plan PlanFor(bool avx512) {
  if (avx512) return Plan{6, 4, 16, 4, 1024, 144, 4096};
  return Plan{6, 2, 8, 4, 1024, 96, 4096};
}

void EmitMicroKernel(x86::Compiler& cc, asmjit::FuncNode* fn, const Plan& p, bool avx512) {
  x86::Gp a = cc.newGpq("a");
  x86::Gp b = cc.newGpq("b");
  x86::Gp c = cc.newGpq("c");
  x86::Gp ldc = cc.newGpq("ldc");
  x86::Gp kc = cc.newGpq("kc");
  x86::Gp load = cc.newGpq("load");
  fn->setArg(0, a);
  fn->setArg(1, b);
  fn->setArg(2, c);
  fn->setArg(3, ldc);
  fn->setArg(4, kc);
  fn->setArg(5, load);

  auto new_vec = [&]() { return avx512 ? x86::Vec(cc.newZmm()) : x86::Vec(cc.newYmm()); };
  const int vec_bytes = p.lanes * 4;
  std::vector<x86::Vec> acc(static_cast<size_t>(p.mr * p.nv));
  for (x86::Vec& v : acc) v = new_vec();
  std::vector<x86::Vec> bv(static_cast<size_t>(p.nv));
  for (x86::Vec& v : bv) v = new_vec();

  cc.shl(ldc, 2);  // floats -> bytes
  x86::Gp row = cc.newGpq("row");
  asmjit::Label zero = cc.newLabel();
  asmjit::Label start = cc.newLabel();
  cc.test(load, load);
  cc.jz(zero);
  cc.mov(row, c);
  for (int r = 0; r < p.mr; ++r) {
    for (int v = 0; v < p.nv; ++v) cc.vmovups(acc[r * p.nv + v], x86::ptr(row, v * vec_bytes));
    if (r + 1 < p.mr) cc.add(row, ldc);
  }
  cc.jmp(start);
  cc.bind(zero);
  for (x86::Vec& v : acc) {
    // vxorps on zmm needs AVX512DQ; the integer xor gives the same +0.0f.
    if (avx512) {
      cc.vpxord(v, v, v);
    } else {
      cc.vxorps(v, v, v);
    }
  }
  cc.bind(start);

  // One k step at byte offsets (a_off, b_off) into the panels.
  auto step = [&](int32_t a_off, int32_t b_off) {
    for (int v = 0; v < p.nv; ++v) cc.vmovaps(bv[v], x86::ptr(b, b_off + v * vec_bytes));
    for (int r = 0; r < p.mr; ++r) {
      // A register broadcast, not an embedded {1to16} operand on each FMA:
      // the embedded form ran ~15% slower (one load per FMA).
      x86::Vec av = new_vec();
      cc.vbroadcastss(av, x86::dword_ptr(a, a_off + r * 4));
      // b as the VEX.vvvv operand, a as r/m: see NaN payloads at the top.
      for (int v = 0; v < p.nv; ++v) cc.vfmadd231ps(acc[r * p.nv + v], bv[v], av);
    }
  };
  const int32_t a_step = p.mr * 4;
  const int32_t b_step = p.nr() * 4;
  x86::Gp blocks = cc.newGpq("blocks");
  asmjit::Label unrolled = cc.newLabel();
  asmjit::Label rest = cc.newLabel();
  asmjit::Label single = cc.newLabel();
  asmjit::Label store = cc.newLabel();
  cc.mov(blocks, kc);
  cc.shr(blocks, std::countr_zero(static_cast<unsigned>(p.unroll)));
  cc.jz(rest);
  cc.bind(unrolled);
  for (int u = 0; u < p.unroll; ++u) step(u * a_step, u * b_step);
  cc.add(a, a_step * p.unroll);
  cc.add(b, b_step * p.unroll);
  cc.dec(blocks);
  cc.jnz(unrolled);
  cc.bind(rest);
  cc.and_(kc, p.unroll - 1);
  cc.jz(store);
  cc.bind(single);
  step(0, 0);
  cc.add(a, a_step);
  cc.add(b, b_step);
  cc.dec(kc);
  cc.jnz(single);
  cc.bind(store);
  cc.mov(row, c);
  for (int r = 0; r < p.mr; ++r) {
    for (int v = 0; v < p.nv; ++v) cc.vmovups(x86::ptr(row, v * vec_bytes), acc[r * p.nv + v]);
    if (r + 1 < p.mr) cc.add(row, ldc);
  }
}

void* CompileMicroKernel(asmjit::JitRuntime& runtime, const Plan& p, bool avx512,
                         bool inject_error) {
  const asmjit::FuncSignature signature =
      asmjit::FuncSignatureT<void, const float*, const float*, float*, int64_t, int64_t, int64_t>();
  return codegen::CompileFunction(
      runtime, signature, avx512, inject_error,
      [&](x86::Compiler& cc, asmjit::FuncNode* fn) { EmitMicroKernel(cc, fn, p, avx512); });
}

int64_t RoundUp(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// Where an operand's element [i, j] is: at i * rows + j * cols floats. A
// row-major matrix of c columns is {c, 1}; one given as its transpose (the
// row-major [c, r] of an r x c operand, as `x @ transpose(y)` has y) is
// {1, r}. Packing copies every element into the panels anyway, so reading
// a transposed operand in place costs no extra pass (and changes no bit:
// the panels hold the same values).
struct Strides {
  int64_t rows, cols;
};

// dst[k * mr + r] = a[r, k] over an mr x kc block of A, rows past `rows`
// zero. Loops in the order that reads A contiguously.
void PackA(const float* a, Strides s, int64_t rows, int64_t kc, int mr, float* dst) {
  if (s.cols == 1) {
    for (int64_t r = 0; r < rows; ++r) {
      const float* src = a + r * s.rows;
      for (int64_t kk = 0; kk < kc; ++kk) dst[kk * mr + r] = src[kk];
    }
  } else {
    for (int64_t kk = 0; kk < kc; ++kk) {
      const float* src = a + kk * s.cols;
      for (int64_t r = 0; r < rows; ++r) dst[kk * mr + r] = src[r * s.rows];
    }
  }
  for (int64_t r = rows; r < mr; ++r) {
    for (int64_t kk = 0; kk < kc; ++kk) dst[kk * mr + r] = 0.0f;
  }
}

// dst[k * nr + j] = b[k, j] over a kc x nr block of B, columns past `cols`
// zero.
void PackB(const float* b, Strides s, int64_t cols, int64_t kc, int nr, float* dst) {
  if (s.cols == 1) {
    for (int64_t kk = 0; kk < kc; ++kk) {
      std::memcpy(dst + kk * nr, b + kk * s.rows, static_cast<size_t>(cols) * sizeof(float));
      std::fill(dst + kk * nr + cols, dst + (kk + 1) * nr, 0.0f);
    }
    return;
  }
  // B stored transposed: column j of B is a contiguous run over k. In steps
  // of 16 k, so that the panel rows written (16 x nr floats) and the
  // columns read (cols x 16 floats) both stay in L1.
  constexpr int64_t kStep = 16;
  for (int64_t k0 = 0; k0 < kc; k0 += kStep) {
    const int64_t k1 = std::min(kc, k0 + kStep);
    for (int64_t j = 0; j < cols; ++j) {
      const float* src = b + j * s.cols;
      for (int64_t kk = k0; kk < k1; ++kk) dst[kk * nr + j] = src[kk * s.rows];
    }
  }
  for (int64_t kk = 0; kk < kc; ++kk) std::fill(dst + kk * nr + cols, dst + (kk + 1) * nr, 0.0f);
}

// Multiply-adds a range must have to be worth a thread
// (ThreadPool::kMinRangeNs of work): the AVX-512 kernel does ~0.02 ns per
// multiply-add on one thread at 64^3-256^3 here (2-vCPU Xeon; 64^3 in
// ~5 us), so about 10^6 of them, and a 128^3 product splits in two at most.
constexpr int64_t kMinRangeFlops = ThreadPool::MinRange(0.02);

// One product and its blocking, for the loops below.
struct Product {
  const Plan& p;
  MicroKernelFn kernel;
  int64_t m, k, n;
  const float* a;
  const float* b;
  float* out;
  int64_t kc_max;
  Strides sa, sb;
};

// Packs panels [first, last) of the B block at columns [jc, jc + nc), k
// rows [pc, pc + kc), panel jr at b_pack + jr * kc.
void PackBPanels(const Product& x, int64_t jc, int64_t nc, int64_t pc, int64_t kc, int64_t first,
                 int64_t last, float* b_pack) {
  const int nr = x.p.nr();
  for (int64_t panel = first; panel < last; ++panel) {
    const int64_t jr = panel * nr;
    PackB(x.b + pc * x.sb.rows + (jc + jr) * x.sb.cols, x.sb, std::min<int64_t>(nr, nc - jr), kc,
          nr, b_pack + jr * kc);
  }
}

// Rows [r0, r1) of the output's columns [jc, jc + nc) for the k block
// [pc, pc + kc), whose B block is packed in b_pack: packs A blocks of MC
// rows into a_pack and runs the tiles (edges through `scratch`).
void RunRows(const Product& x, int64_t r0, int64_t r1, int64_t jc, int64_t nc, int64_t pc,
             int64_t kc, const float* b_pack, float* a_pack, float* scratch) {
  const Plan& p = x.p;
  const int mr = p.mr;
  const int nr = p.nr();
  const int64_t n = x.n;
  const int64_t load = pc > 0;  // continue the chains of the previous k block
  for (int64_t ic = r0; ic < r1; ic += p.mc) {
    const int64_t mc = std::min(p.mc, r1 - ic);
    for (int64_t ir = 0; ir < mc; ir += mr) {
      PackA(x.a + (ic + ir) * x.sa.rows + pc * x.sa.cols, x.sa, std::min<int64_t>(mr, mc - ir), kc,
            mr, a_pack + ir * kc);
    }
    for (int64_t jr = 0; jr < nc; jr += nr) {
      const int64_t cols = std::min<int64_t>(nr, nc - jr);
      const float* b_panel = b_pack + jr * kc;
      for (int64_t ir = 0; ir < mc; ir += mr) {
        const int64_t rows = std::min<int64_t>(mr, mc - ir);
        float* c = x.out + (ic + ir) * n + jc + jr;
        const float* a_panel = a_pack + ir * kc;
        if (rows == mr && cols == nr) {
          x.kernel(a_panel, b_panel, c, n, kc, load);
          continue;
        }
        // An edge tile: through the scratch tile, valid part only.
        if (load) {
          for (int64_t r = 0; r < rows; ++r) {
            std::memcpy(scratch + r * nr, c + r * n, static_cast<size_t>(cols) * sizeof(float));
          }
        }
        x.kernel(a_panel, b_panel, scratch, nr, kc, load);
        for (int64_t r = 0; r < rows; ++r) {
          std::memcpy(c + r * n, scratch + r * nr, static_cast<size_t>(cols) * sizeof(float));
        }
      }
    }
  }
}

// The whole driver over rows [r0, r1) and columns [c0, c1), with its own
// B block.
void RunBlock(const Product& x, int64_t r0, int64_t r1, int64_t c0, int64_t c1, float* a_pack,
              float* b_pack, float* scratch) {
  const int nr = x.p.nr();
  for (int64_t jc = c0; jc < c1; jc += x.p.nc) {
    const int64_t nc = std::min(x.p.nc, c1 - jc);
    for (int64_t pc = 0; pc < x.k; pc += x.kc_max) {
      const int64_t kc = std::min(x.kc_max, x.k - pc);
      PackBPanels(x, jc, nc, pc, kc, 0, (nc + nr - 1) / nr, b_pack);
      RunRows(x, r0, r1, jc, nc, pc, kc, b_pack, a_pack, scratch);
    }
  }
}

// The widest any range of ParallelFor(n, align, ...) making `ranges` ranges
// can be (thread_pool.cc cuts n into ceil(n / align) blocks of align and
// gives each range floor or ceil of blocks / ranges of them).
int64_t WidestRange(int64_t n, int64_t align, int ranges) {
  const int64_t blocks = (n + align - 1) / align;
  return std::min(n, align * ((blocks + ranges - 1) / ranges));
}

}  // namespace

bool Jit::MatMulF32(int64_t m, int64_t k, int64_t n, const float* a, const float* b, float* out,
                    ThreadPool* pool, Isa isa) {
  return MatMulF32(m, k, n, {a, false}, {b, false}, out, pool, isa);
}

bool Jit::MatMulF32(int64_t m, int64_t k, int64_t n, MatMulOperand a_op, MatMulOperand b_op,
                    float* out, ThreadPool* pool, Isa isa) {
  const float* a = a_op.data;
  const float* b = b_op.data;
  const Strides sa = a_op.transposed ? Strides{1, m} : Strides{k, 1};
  const Strides sb = b_op.transposed ? Strides{1, k} : Strides{n, 1};
  Impl& state = impl();
  const bool avx512 = isa == Isa::kAvx512 || (isa == Isa::kAuto && state.avx512);
  const Plan p = PlanFor(avx512);
  const std::string key = absl::StrCat("matmul:f32:", p.mr, "x", p.nv, "u", p.unroll);
  auto kernel =
      reinterpret_cast<MicroKernelFn>(Cached(key, isa, [&](bool avx512_path, bool inject_error) {
        return CompileMicroKernel(state.runtime, p, avx512_path, inject_error);
      }));
  if (kernel == nullptr) return false;
  if (m <= 0 || n <= 0) return true;
  if (k <= 0) {
    std::fill(out, out + m * n, 0.0f);  // the empty chain: +0.0f
    return true;
  }

  const int mr = p.mr;
  const int nr = p.nr();
  const int64_t k_blocks = (k + p.kc - 1) / p.kc;
  const int64_t kc_max = (k + k_blocks - 1) / k_blocks;
  const Product x{p, kernel, m, k, n, a, b, out, kc_max, sa, sb};

  // Rows or columns, whichever makes more ranges; columns on a tie: each
  // range then packs the B panels it reads into its own cache instead of
  // reading the caller's (measured: 128^3 on 2 threads 16 us by columns,
  // 28 us by rows), at the cost of packing A once per range.
  int row_ranges = 1, col_ranges = 1;
  if (pool != nullptr && pool->threads() > 1) {
    row_ranges = pool->RangesFor(m, mr, std::max<int64_t>(mr, kMinRangeFlops / (n * k)));
    col_ranges = pool->RangesFor(n, nr, std::max<int64_t>(nr, kMinRangeFlops / (m * k)));
  }
  const bool split_rows = row_ranges >= 2 && row_ranges > col_ranges;
  const bool split_cols = !split_rows && col_ranges >= 2;
  const int ranges = split_rows ? row_ranges : split_cols ? col_ranges : 1;

  // One allocation, kept in the Jit: the shared packed B block (rows split,
  // or no split), then per range the packed A block, the scratch tile and
  // (columns split) its own packed B block, each 64-byte aligned for the
  // vector loads and apart from the other ranges' cache lines.
  const int64_t rows_per_range = split_rows ? WidestRange(m, mr, ranges) : m;
  const int64_t cols_per_range = split_cols ? WidestRange(n, nr, ranges) : n;
  const int64_t mc_max = RoundUp(std::min(rows_per_range, p.mc), mr);
  const int64_t nc_max = RoundUp(std::min(cols_per_range, p.nc), nr);
  const int64_t a_floats = RoundUp(mc_max * kc_max, 16);
  const int64_t b_floats = RoundUp(nc_max * kc_max, 16);
  const int64_t scratch_floats = RoundUp(int64_t{mr} * nr, 16);
  const int64_t shared = split_cols ? 0 : b_floats;
  const int64_t per_range = a_floats + scratch_floats + (split_cols ? b_floats : 0);
  const int64_t need = shared + per_range * ranges + 16;
  if (state.matmul_buffer_floats < need) {
    state.matmul_buffer = std::make_unique<float[]>(static_cast<size_t>(need));
    state.matmul_buffer_floats = need;
  }
  float* base = state.matmul_buffer.get();
  base += (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64 / sizeof(float);
  float* shared_b = base;
  auto a_pack = [&](int range) { return base + shared + per_range * range; };
  auto scratch = [&](int range) { return a_pack(range) + a_floats; };
  auto own_b = [&](int range) { return scratch(range) + scratch_floats; };

  if (split_cols) {
    pool->ParallelFor(n, nr, std::max<int64_t>(nr, kMinRangeFlops / (m * k)),
                      [&](int range, int64_t c0, int64_t c1) {
                        RunBlock(x, 0, m, c0, c1, a_pack(range), own_b(range), scratch(range));
                      });
    return true;
  }
  if (!split_rows) {
    RunBlock(x, 0, m, 0, n, a_pack(0), shared_b, scratch(0));
    return true;
  }
  const int64_t min_rows = std::max<int64_t>(mr, kMinRangeFlops / (n * k));
  for (int64_t jc = 0; jc < n; jc += p.nc) {
    const int64_t nc = std::min(p.nc, n - jc);
    const int64_t panels = (nc + nr - 1) / nr;
    for (int64_t pc = 0; pc < k; pc += kc_max) {
      const int64_t kc = std::min(kc_max, k - pc);
      // Packing is a copy: worth splitting only in runs of several panels.
      pool->ParallelFor(panels, 1, 8, [&](int, int64_t first, int64_t last) {
        PackBPanels(x, jc, nc, pc, kc, first, last, shared_b);
      });
      // Every range finishes this k block before any starts the next: the
      // next block's microkernels load the partial sums stored here.
      pool->ParallelFor(m, mr, min_rows, [&](int range, int64_t r0, int64_t r1) {
        RunRows(x, r0, r1, jc, nc, pc, kc, shared_b, a_pack(range), scratch(range));
      });
    }
  }
  return true;
}

}  // namespace alea::vm::jit
