#include "vm/tape.h"

#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "vm/digamma.h"

namespace alea::vm {

GradRule GradRuleOfOp(Op op) {
  switch (op) {
#define ALEA_GRAD_OP(name, dx, dy) \
  case Op::name:                   \
    return GradRule::kOp_##name;
#define ALEA_GRAD_ZERO_OP(name) \
  case Op::name:                \
    return GradRule::kZero;
#define ALEA_GRAD_NATIVE(name, dx, dy)
#define ALEA_GRAD_TENSOR_OP(name) \
  case Op::name:                  \
    return GradRule::kTensorOp_##name;
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_ZERO_OP
#undef ALEA_GRAD_NATIVE
#undef ALEA_GRAD_TENSOR_OP
    default:
      return GradRule::kNone;
  }
}

GradRule GradRuleOfNative(std::string_view name) {
  static const auto* const kRules = [] {
    auto* rules = new absl::flat_hash_map<std::string_view, GradRule>();
#define ALEA_GRAD_OP(name, dx, dy)
#define ALEA_GRAD_NATIVE(name, dx, dy) rules->emplace(#name, GradRule::kNative_##name);
#define ALEA_GRAD_ZERO_NATIVE(name) rules->emplace(#name, GradRule::kZero);
#define ALEA_GRAD_CARRY_NATIVE(name) rules->emplace(#name, GradRule::kCarry);
#define ALEA_GRAD_TENSOR_NATIVE(name) rules->emplace(#name, GradRule::kTensorNative_##name);
#define ALEA_GRAD_NO_RULE(name) rules->emplace(#name, GradRule::kNone);
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
#undef ALEA_GRAD_ZERO_NATIVE
#undef ALEA_GRAD_CARRY_NATIVE
#undef ALEA_GRAD_TENSOR_NATIVE
#undef ALEA_GRAD_NO_RULE
    return rules;
  }();
  static constexpr std::string_view kZeroFamilies[] = {
#define ALEA_GRAD_OP(name, dx, dy)
#define ALEA_GRAD_NATIVE(name, dx, dy)
#define ALEA_GRAD_ZERO_FAMILY(prefix) #prefix,
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
#undef ALEA_GRAD_ZERO_FAMILY
  };
  if (auto it = kRules->find(name); it != kRules->end()) return it->second;
  for (std::string_view prefix : kZeroFamilies) {
    if (name.substr(0, prefix.size()) == prefix) return GradRule::kZero;
  }
  return GradRule::kNone;
}

bool IsTensorRule(GradRule rule) {
  switch (rule) {
#define ALEA_GRAD_TENSOR_OP(name) case GradRule::kTensorOp_##name:
#define ALEA_GRAD_TENSOR_NATIVE(name) case GradRule::kTensorNative_##name:
#define ALEA_GRAD_OP(name, dx, dy)
#define ALEA_GRAD_NATIVE(name, dx, dy)
#include "vm/grad_rules.def"
#undef ALEA_GRAD_TENSOR_OP
#undef ALEA_GRAD_TENSOR_NATIVE
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
    return true;
    default:
      return false;
  }
}

bool IsSetRule(GradRule rule) {
  return rule == GradRule::kTensorNative_t_set_int || rule == GradRule::kTensorNative_t_set_tuple ||
         rule == GradRule::kTensorNative_t_set_take || rule == GradRule::kTensorNative_t_set_mask;
}

bool IsUpdateRule(GradRule rule) {
  return IsSetRule(rule) || rule == GradRule::kTensorNative_t_add_at_int ||
         rule == GradRule::kTensorNative_t_add_at_tuple ||
         rule == GradRule::kTensorNative_t_add_at_take ||
         rule == GradRule::kTensorNative_t_add_at_mask;
}

void Tape::ReleaseAdjoints(Heap& heap) {
  for (Object*& t : tensor_adjoints_) {
    if (t != nullptr) heap.Release(t);
    t = nullptr;
  }
}

void Tape::Reset(Heap& heap) {
  heap_ = &heap;
  ReleaseAdjoints(heap);
  for (Object* o : kept_) heap.Release(o);
  kept_.clear();
  is_tensor_.clear();
  slots_.clear();
  entries_.clear();
  made_.clear();
  nodes_ = 0;
  boundary_node = 0;
  call_nodes.clear();
}

uint32_t Tape::NewLeaf(bool tensor) {
  if (is_tensor_.empty()) is_tensor_.push_back(0);
  is_tensor_.push_back(tensor ? 1 : 0);
  return ++nodes_;
}

uint32_t Tape::Record(GradRule rule, uint32_t in0, uint32_t in1, double x, double y, double z) {
  entries_.push_back(Entry{rule, in0, in1, x, y, z, nullptr, nullptr, nullptr, 0, 0, nullptr});
  made_.push_back(NewLeaf(false));
  return nodes_;
}

void Tape::Keep(Object* object) {
  ++object->refcount;
  kept_.push_back(object);
}

uint32_t Tape::RecordTensor(GradRule rule, uint32_t in0, uint32_t in1, Object* a, Object* b,
                            Object* out, int64_t aux, int64_t aux2, bool float_result, Object* c) {
  for (Object* o : {a, b, out, c}) {
    if (o != nullptr) Keep(o);
  }
  entries_.push_back(Entry{rule, in0, in1, 0, 0, 0, a, b, out, aux, aux2, c});
  made_.push_back(NewLeaf(!float_result));
  return nodes_;
}

void Tape::RecordTensorPart(GradRule rule, uint32_t in0, Object* a, Object* b, int64_t aux,
                            int64_t aux2) {
  for (Object* o : {a, b}) {
    if (o != nullptr) Keep(o);
  }
  entries_.push_back(Entry{rule, in0, 0, 0, 0, 0, a, b, nullptr, aux, aux2, nullptr});
  made_.push_back(nodes_);
}

bool Tape::TracksTensor(const Object* object) const {
  return object->kind == ObjKind::kTensor && Slot(object, 0) != 0;
}

uint32_t Tape::Slot(const Object* object, uint32_t slot) const {
  auto it = slots_.find(object);
  if (it == slots_.end() || slot >= it->second.size()) return 0;
  return it->second[slot];
}

void Tape::SetSlot(Object* object, uint32_t slot, uint32_t node) {
  if (node == 0 && !slots_.contains(object)) return;
  auto [it, fresh] = slots_.try_emplace(object);
  if (fresh) {
    ++object->refcount;
    kept_.push_back(object);
  }
  if (it->second.size() <= slot) it->second.resize(slot + 1, 0);
  it->second[slot] = node;
}

bool Tape::Backward(uint32_t result, const Object* result_tensor, TensorContext& cx) {
  if (heap_ != nullptr) ReleaseAdjoints(*heap_);
  adjoints_.assign(nodes_ + 1, 0.0);
  tensor_adjoints_.assign(nodes_ + 1, nullptr);
  reached_.assign(nodes_ + 1, 0);
  site_next_ = 0;
  sites_wanted_ = 0;
  if (result == 0) return true;
  if (is_tensor_[result]) {
    if (!SeedTensor(result, result_tensor, cx)) return false;
  } else {
    adjoints_[result] = 1.0;
  }
  reached_[result] = 1;
  auto pass = [&](uint32_t node, double d) {
    if (node == 0) return;
    adjoints_[node] += d;
    reached_[node] = 1;
  };
  for (size_t k = entries_.size(); k-- > 0;) {
    const uint32_t out = made_[k];
    if (!reached_[out]) continue;
    const Entry& e = entries_[k];
    if (IsTensorRule(e.rule)) {
      if (!TensorStep(e, out, cx)) return false;
      continue;
    }
    const double g = adjoints_[out];
    const double x = e.x, y = e.y, z = e.z;
    double dx = 0.0, dy = 0.0;
    switch (e.rule) {
#define ALEA_GRAD_OP(name, rule_dx, rule_dy) \
  case GradRule::kOp_##name:                 \
    dx = (rule_dx);                          \
    dy = (rule_dy);                          \
    break;
#define ALEA_GRAD_NATIVE(name, rule_dx, rule_dy) \
  case GradRule::kNative_##name:                 \
    dx = (rule_dx);                              \
    dy = (rule_dy);                              \
    break;
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
      default:
        break;
    }
    (void)x;
    (void)y;
    (void)z;
    pass(e.in0, dx);
    pass(e.in1, dy);
  }
  return true;
}

}  // namespace alea::vm
