#include "vm/heap.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>  // madvise
#endif

#include "vm/randstate.h"
#include "vm/tensor.h"

namespace alea::vm {
namespace {

// Sizes beyond this are refused before any arithmetic can overflow.
constexpr uint64_t kMaxObjectBytes = uint64_t{1} << 48;

uint64_t PayloadBytes(ObjKind kind, uint64_t length) {
  switch (kind) {
    case ObjKind::kStr:
      return length;
    case ObjKind::kArray:
      return length * sizeof(Value);
    case ObjKind::kTuple:
    case ObjKind::kClosure:
      return length * (sizeof(Value) + 1);
    case ObjKind::kTensor:
      return 0;  // TensorBytes
    case ObjKind::kRandState:
      return sizeof(RandStateBody);
  }
  return 0;
}

constexpr uint64_t kTensorAlign = 64;

// Where a tensor's inline elements start: after the shape, aligned.
uint64_t TensorDataOffset(int rank) {
  uint64_t header = sizeof(Object) + sizeof(TensorHead) + sizeof(int64_t) * rank;
  return (header + kTensorAlign - 1) / kTensorAlign * kTensorAlign;
}

// `view`: TensorHead::host_view (a view of another tensor also holds its
// base's pointer after the shape).
uint64_t TensorBytes(DType dtype, int rank, uint64_t count, uint8_t view) {
  uint64_t bytes = TensorDataOffset(view == TensorHead::kViewOfTensor ? rank + 1 : rank);
  if (view == 0) bytes += count * ElementBytes(dtype);
  return (bytes + kTensorAlign - 1) / kTensorAlign * kTensorAlign;
}

// The object header, tensor head and shape of a new tensor block (its head
// already zeroed); `data` is where its elements live.
void InitTensor(Object* o, DType dtype, absl::Span<const int64_t> shape, int64_t count,
                void* data) {
  o->refcount = 1;
  o->kind = ObjKind::kTensor;
  o->length = static_cast<uint64_t>(count);
  TensorHead* head = Head(o);
  head->dtype = dtype;
  head->rank = static_cast<uint8_t>(shape.size());
  head->data = data;
  for (size_t i = 0; i < shape.size(); ++i) ShapeData(o)[i] = shape[i];
}

}  // namespace

uint64_t Heap::SizeOf(const Object* o) {
  if (o->kind == ObjKind::kTensor) {
    return TensorBytes(DTypeOf(o), RankOf(o), o->length, Head(o)->host_view);
  }
  const uint64_t spare = o->kind == ObjKind::kArray ? o->spare : 0;
  return sizeof(Object) + PayloadBytes(o->kind, o->length + spare);
}

std::nullptr_t Heap::Refuse(uint64_t bytes, bool by_budget) {
  last_failure_was_budget_ = by_budget;
  last_failed_bytes_ = bytes;
  return nullptr;
}

bool Heap::WithinBudget(uint64_t bytes) {
  // Parked tensors are memory the heap holds: they count against the budget
  // until they are given up for this allocation.
  if (max_bytes_ == 0 || bytes_live_ + parked_bytes_ + bytes <= max_bytes_) return true;
  DropParked();
  return bytes_live_ + bytes <= max_bytes_;
}

void Heap::Count(uint64_t bytes) {
  bytes_live_ += bytes;
  if (bytes_live_ > peak_bytes_) peak_bytes_ = bytes_live_;
  ++allocations_;
}

Object* Heap::Allocate(ObjKind kind, uint64_t length, uint64_t payload_bytes) {
  if (length > kMaxObjectBytes / 16) {
    return Refuse(std::numeric_limits<uint64_t>::max(), max_bytes_ != 0);
  }
  uint64_t bytes = sizeof(Object) + payload_bytes;
  if (!WithinBudget(bytes)) return Refuse(bytes, true);
  // Zeroed: null slots are null references, and masks own nothing.
  Object* o;
  if (const int size_class = PoolClass(kind, bytes); size_class >= 0) {
    if (pool_[size_class] == nullptr) RefillPool(size_class);
    o = pool_[size_class];
    if (o != nullptr) {
      pool_[size_class] = *reinterpret_cast<Object**>(o);
      std::memset(o, 0, PoolBlockBytes(size_class));
    }
  } else {
    o = static_cast<Object*>(std::calloc(1, bytes));
  }
  if (o == nullptr) return Refuse(bytes, false);
  o->refcount = 1;
  o->kind = kind;
  o->length = length;
  Count(bytes);
  return o;
}

Object* Heap::NewStr(uint64_t length) {
  return Allocate(ObjKind::kStr, length, PayloadBytes(ObjKind::kStr, length));
}

Object* Heap::NewStr(absl::string_view text) {
  Object* o = NewStr(text.size());
  if (o != nullptr && !text.empty()) std::memcpy(Chars(o), text.data(), text.size());
  return o;
}

Object* Heap::NewTuple(uint64_t fields) {
  return Allocate(ObjKind::kTuple, fields, PayloadBytes(ObjKind::kTuple, fields));
}

Object* Heap::NewArray(uint64_t length, bool elements_are_refs) {
  Object* o = Allocate(ObjKind::kArray, length, PayloadBytes(ObjKind::kArray, length));
  if (o != nullptr) o->elements_are_refs = elements_are_refs ? 1 : 0;
  return o;
}

Object* Heap::ResizeArray(Object* o, uint64_t length) {
  const uint64_t capacity = o->length + o->spare;
  if (length <= capacity) {
    std::memset(Slots(o) + o->length, 0, (length - o->length) * sizeof(Value));
    o->spare = static_cast<uint32_t>(capacity - length);
    o->length = length;
    return o;
  }
  // Double, but keep the spare part countable in 32 bits and the whole
  // within the object limit.
  uint64_t grown = std::max<uint64_t>({length, capacity * 2, 8});
  grown = std::min<uint64_t>(grown, length + std::numeric_limits<uint32_t>::max());
  grown = std::max(length, std::min<uint64_t>(grown, kMaxObjectBytes / 16));
  if (length > kMaxObjectBytes / 16) {
    return Refuse(std::numeric_limits<uint64_t>::max(), max_bytes_ != 0);
  }
  const uint64_t old_bytes = SizeOf(o);
  const uint64_t new_bytes = sizeof(Object) + PayloadBytes(ObjKind::kArray, grown);
  if (!WithinBudget(new_bytes - old_bytes)) return Refuse(new_bytes, true);
  auto* moved = static_cast<Object*>(std::realloc(o, new_bytes));
  if (moved == nullptr) return Refuse(new_bytes, false);
  std::memset(Slots(moved) + moved->length, 0, (length - moved->length) * sizeof(Value));
  moved->length = length;
  moved->spare = static_cast<uint32_t>(grown - length);
  bytes_live_ -= old_bytes;
  Count(new_bytes);
  return moved;
}

Object* Heap::WritableArray(Object* xs, uint64_t length, bool refs) {
  if (xs->refcount == 1) {
    Object* grown = ResizeArray(xs, length);
    if (grown == nullptr) {
      Release(xs);
      return nullptr;
    }
    grown->elements_are_refs = refs ? 1 : 0;
    return grown;
  }
  Object* copy = NewArray(length, refs);
  if (copy == nullptr) {
    Release(xs);
    return nullptr;
  }
  if (xs->length != 0) std::memcpy(Slots(copy), Slots(xs), xs->length * sizeof(Value));
  if (refs) {
    for (uint64_t i = 0; i < xs->length; ++i) Retain(Slots(xs)[i]);
  }
  Release(xs);
  return copy;
}

Object* Heap::NewClosure(uint32_t function, uint64_t captures) {
  Object* o = Allocate(ObjKind::kClosure, captures, PayloadBytes(ObjKind::kClosure, captures));
  if (o != nullptr) o->function = function;
  return o;
}

Object* Heap::NewRandState(const random::RandState& state) {
  Object* o = Allocate(ObjKind::kRandState, 0, PayloadBytes(ObjKind::kRandState, 0));
  if (o == nullptr) return nullptr;
  RandStateBody* body = BodyOf(o);  // zeroed by Allocate: unconsumed
  body->state = state;
  SetCreatedAt(o, RandSite{});
  body->consumed_function = RandSite::kNoFunction;
  return o;
}

// Blocks at least this large are worth keeping for reuse; at most this many,
// holding at most this much.
constexpr uint64_t kMinSpareBlock = uint64_t{64} << 10;
constexpr size_t kMaxSpareBlocks = 8;
constexpr uint64_t kMaxSpareBytes = uint64_t{256} << 20;

Object* Heap::MakeNullary(uint16_t tag) {
  if (tag >= nullary_.size()) nullary_.resize(tag + 1, nullptr);
  auto* o = static_cast<Object*>(std::calloc(1, sizeof(Object)));
  if (o == nullptr) return Refuse(sizeof(Object), false);
  o->refcount = uint64_t{1} << 62;
  o->kind = ObjKind::kTuple;
  o->tag = tag;
  nullary_[tag] = o;
  return o;
}

void Heap::RefillPool(int size_class) {
  // A slab of blocks of this class, linked into its free list; slabs are
  // only freed with the heap. Under AddressSanitizer nothing is pooled.
  const size_t block = PoolBlockBytes(size_class);
  const size_t count = kSlabBytes / block;
  auto* slab = static_cast<char*>(std::malloc(count * block));
  if (slab == nullptr) return;
  slabs_.push_back(slab);
  for (size_t i = count; i-- > 0;) {
    auto* o = reinterpret_cast<Object*>(slab + i * block);
    *reinterpret_cast<Object**>(o) = pool_[size_class];
    pool_[size_class] = o;
  }
}

Heap::~Heap() {
  for (Object* o : nullary_) std::free(o);
  for (void* slab : slabs_) std::free(slab);
  DropParked();
  for (const SpareBlock& s : spare_blocks_) std::free(s.block);
}

void Heap::Unpark(Object* o) {
  const uint64_t bytes = SizeOf(o);
  parked_bytes_ -= bytes;
  bytes_live_ += bytes;
}

void Heap::DropParked() {
  if (parked_count_ == 0) return;
  for (Object*& o : parked_) {
    if (o == nullptr) continue;
    Head(o)->home = 0;  // frees for good
    Object* dead = o;
    o = nullptr;
    Unpark(dead);
    Free(dead);
  }
  parked_count_ = 0;
}

Object* Heap::NewTensorAt(uint32_t site, DType dtype, absl::Span<const int64_t> shape) {
  if (site < parked_.size() && parked_[site] != nullptr) {
    Object* o = parked_[site];
    parked_[site] = nullptr;
    --parked_count_;
    Unpark(o);
    if (DTypeOf(o) == dtype && ShapeOf(o) == shape) {
      o->refcount = 1;
      if (bytes_live_ > peak_bytes_) peak_bytes_ = bytes_live_;
      return o;
    }
    Head(o)->home = 0;
    Free(o);
  }
  Object* o = NewTensor(dtype, shape);
  if (o != nullptr) Head(o)->home = site;
  return o;
}

namespace {

// A tensor's block. Large ones are 2 MiB-aligned and asked for transparent
// huge pages (Linux, where THP is in `madvise` mode): a pass over a 40 MB
// tensor then takes 20 page faults instead of 10^4, and a random gather
// from it misses the TLB far less often (a 4 KiB-page walk per element
// otherwise). Results do not depend on it.
constexpr uint64_t kHugePage = uint64_t{2} << 20;
constexpr uint64_t kHugeFrom = 2 * kHugePage;

void* AllocateTensorBlock(uint64_t bytes) {
  if (bytes < kHugeFrom) return std::aligned_alloc(kTensorAlign, bytes);
  const uint64_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* block = std::aligned_alloc(kHugePage, rounded);
#ifdef MADV_HUGEPAGE
  if (block != nullptr) madvise(block, rounded, MADV_HUGEPAGE);
#endif
  return block;
}

}  // namespace

Object* Heap::NewTensor(DType dtype, absl::Span<const int64_t> shape) {
  const int64_t count = ElementCount(dtype, shape);
  const int rank = static_cast<int>(shape.size());
  const uint64_t bytes = count < 0 ? 0 : TensorBytes(dtype, rank, count, 0);
  if (count < 0 || bytes > kMaxObjectBytes) {
    return Refuse(count < 0 ? std::numeric_limits<uint64_t>::max() : bytes, false);
  }
  if (!WithinBudget(bytes)) return Refuse(bytes, true);
  // Not calloc: most results overwrite every element, and zeroing a large
  // buffer twice would cost a pass over memory.
  Object* o = nullptr;
  for (size_t i = spare_blocks_.size(); i-- > 0;) {
    if (spare_blocks_[i].bytes != bytes) continue;
    o = static_cast<Object*>(spare_blocks_[i].block);
    spare_bytes_ -= bytes;
    spare_blocks_.erase(spare_blocks_.begin() + static_cast<std::ptrdiff_t>(i));
    break;
  }
  if (o == nullptr) o = static_cast<Object*>(AllocateTensorBlock(bytes));
  if (o == nullptr) return Refuse(bytes, false);
  std::memset(o, 0, TensorDataOffset(rank));
  InitTensor(o, dtype, shape, count, reinterpret_cast<char*>(o) + TensorDataOffset(rank));
  Count(bytes);
  return o;
}

Object* Heap::NewTensorView(DType dtype, absl::Span<const int64_t> shape, const void* data) {
  const int64_t count = ElementCount(dtype, shape);
  const int rank = static_cast<int>(shape.size());
  if (count < 0) return Refuse(std::numeric_limits<uint64_t>::max(), false);
  const uint64_t bytes = TensorBytes(dtype, rank, count, TensorHead::kViewOfHost);
  if (!WithinBudget(bytes)) return Refuse(bytes, true);
  auto* o = static_cast<Object*>(std::aligned_alloc(kTensorAlign, bytes));
  if (o == nullptr) return Refuse(bytes, false);
  std::memset(o, 0, bytes);
  // const_cast: the host_view flag is the promise that nothing writes through it.
  InitTensor(o, dtype, shape, count, const_cast<void*>(data));
  Head(o)->host_view = TensorHead::kViewOfHost;
  Count(bytes);
  return o;
}

Object* Heap::NewTensorViewOf(Object* base, DType dtype, absl::Span<const int64_t> shape,
                              const void* data) {
  const int64_t count = ElementCount(dtype, shape);
  const int rank = static_cast<int>(shape.size());
  if (count < 0) return Refuse(std::numeric_limits<uint64_t>::max(), false);
  const uint64_t bytes = TensorBytes(dtype, rank, count, TensorHead::kViewOfTensor);
  if (!WithinBudget(bytes)) return Refuse(bytes, true);
  auto* o = static_cast<Object*>(std::aligned_alloc(kTensorAlign, bytes));
  if (o == nullptr) return Refuse(bytes, false);
  std::memset(o, 0, bytes);
  // const_cast: a view is never written (IsReusable), nor is its base while
  // the view's reference keeps its count above 1.
  InitTensor(o, dtype, shape, count, const_cast<void*>(data));
  Head(o)->host_view = TensorHead::kViewOfTensor;
  ShapeData(o)[rank] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(base));
  ++base->refcount;
  Count(bytes);
  return o;
}

void Heap::KeepSpare(void* block, uint64_t bytes) {
  if (bytes > kMaxSpareBytes) {
    std::free(block);
    return;
  }
  while (!spare_blocks_.empty() &&
         (spare_blocks_.size() >= kMaxSpareBlocks || spare_bytes_ + bytes > kMaxSpareBytes)) {
    spare_bytes_ -= spare_blocks_.front().bytes;
    std::free(spare_blocks_.front().block);
    spare_blocks_.erase(spare_blocks_.begin());
  }
  spare_blocks_.push_back({bytes, block});
  spare_bytes_ += bytes;
}

void Heap::Free(Object* root) {
  // Re-entrant use (a Free inside a Free) cannot happen: nothing here calls out.
  worklist_.push_back(root);
  while (!worklist_.empty()) {
    Object* o = worklist_.back();
    worklist_.pop_back();
    if (o->kind != ObjKind::kStr && o->kind != ObjKind::kTensor && o->kind != ObjKind::kRandState) {
      Value* slots = Slots(o);
      const bool all_refs = o->kind == ObjKind::kArray && o->elements_are_refs;
      const bool some_refs = o->kind != ObjKind::kArray;
      if (all_refs) {
        for (uint64_t i = 0; i < o->length; ++i) {
          Object* child = AsObject(slots[i]);
          if (child != nullptr && --child->refcount == 0) worklist_.push_back(child);
        }
      } else if (some_refs) {
        const uint8_t* mask = Mask(o);
        for (uint64_t i = 0; i < o->length; ++i) {
          if (!mask[i]) continue;
          Object* child = AsObject(slots[i]);
          if (child != nullptr && --child->refcount == 0) worklist_.push_back(child);
        }
      }
    }
    if (o->kind == ObjKind::kTensor && Head(o)->host_view == TensorHead::kViewOfTensor) {
      // A view's base is a child: its elements live as long as the view.
      Object* base = BaseOf(o);
      if (--base->refcount == 0) worklist_.push_back(base);
    }
    if (o->kind == ObjKind::kTensor && Head(o)->home != 0) {
      const uint32_t site = Head(o)->home;
      if (site >= parked_.size()) parked_.resize(site + 1, nullptr);
      if (parked_[site] == nullptr) {
        // Not a value any more: its bytes move from live to parked.
        parked_[site] = o;
        ++parked_count_;
        const uint64_t bytes = SizeOf(o);
        bytes_live_ -= bytes;
        parked_bytes_ += bytes;
        continue;
      }
    }
    const uint64_t bytes = SizeOf(o);
    bytes_live_ -= bytes;
    if (const int size_class = PoolClass(o->kind, bytes); size_class >= 0) {
      *reinterpret_cast<Object**>(o) = pool_[size_class];
      pool_[size_class] = o;
    } else if (o->kind == ObjKind::kTensor && bytes >= kMinSpareBlock && !Head(o)->host_view) {
      KeepSpare(o, bytes);
    } else {
      std::free(o);
    }
  }
  // A huge one-off worklist should not pin memory for the VM's lifetime.
  if (worklist_.capacity() > 4096) std::vector<Object*>().swap(worklist_);
}

}  // namespace alea::vm
