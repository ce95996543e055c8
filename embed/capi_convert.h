// Internal to embed/: the C API's values against a module's types — the
// types' names and signatures as the language spells them, and the
// Converter that checks host values against the types, converts them into
// a VM's heap and copies results out (capi_convert.cc).
#ifndef ALEA_EMBED_CAPI_CONVERT_H_
#define ALEA_EMBED_CAPI_CONVERT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "embed/capi_internal.h"
#include "vm/bytecode.h"
#include "vm/heap.h"

namespace alea::capi {

using K = vm::TypeDesc::Kind;

// Values nested deeper than this do not cross the boundary: host values are
// converted and destroyed recursively.
constexpr int kMaxDepth = 10'000;

// The type T(type) as the language spells it ("Tensor(f32)", "(Int, Str)"),
// or nullopt when a function is part of it (functions do not cross).
std::optional<std::string> TypeName(const vm::Module& m, const vm::ExportType& e);

// The ExportType of T(index), for a part of a declared type's value.
vm::ExportType ExportOf(const vm::Module& m, uint32_t index);

// "(Int, Tensor(f32)) -> Float", or nullopt when a function is part of it.
std::optional<std::string> SignatureOf(const vm::Module& m,
                                       const std::vector<vm::ExportType>& params,
                                       const vm::ExportType& result, bool uses_rng);

// Whether a host's signature fits the declaration's: equal but for spaces,
// and a bare `Tensor` in `host` stands for `Tensor(d)` of any dtype.
bool SignatureFits(std::string_view host, std::string_view declared);

std::string WithoutSpaces(std::string_view s);

// Where a value sits in what is passed, rendered only for an error:
// "element 2 of argument 1", "field `mu` of its result".
struct Path {
  static constexpr size_t kNoIndex = ~size_t{0};
  const Path* parent = nullptr;
  enum class Step { kRoot, kElement, kField, kCaseField } step = Step::kRoot;
  absl::string_view root;  // kRoot: "argument" (with index: "argument 1"), "its result"...
  size_t index = kNoIndex;
  absl::string_view name;  // kField: the field; kCaseField: the constructor

  std::string Render() const {
    switch (step) {
      case Step::kRoot:
        return index == kNoIndex ? std::string(root) : absl::StrCat(root, " ", index + 1);
      case Step::kElement:
        return absl::StrCat("element ", index + 1, " of ", parent->Render());
      case Step::kField:
        return absl::StrCat("field `", name, "` of ", parent->Render());
      case Step::kCaseField:
        return absl::StrCat("field ", index + 1, " of `", name, "` in ", parent->Render());
    }
    return "";
  }
};

alea_kind KindOf(K kind);

bool ValidValue(alea_value v);

// Small lists a call makes on the stack: its arguments, their states.
using States = absl::InlinedVector<StateObject*, 4>;

using VmValues = absl::InlinedVector<vm::Value, 8>;

// Converts host values to the VM's and back against one module's types.
class Converter {
 public:
  Converter(vm::Heap& heap, const vm::Module& m) : heap_(heap), m_(m) {}

  // Whether `v` fits `t`: an error message, or empty. Collects the states
  // it holds (to be consumed once everything converted) and refuses one met
  // twice or already consumed.
  std::string Check(alea_value v, const vm::ExportType& t, const Path& at, States& states,
                    int depth = 0) const;

  // `v` (checked) as a VM value, owned; nullopt when out of memory. For an
  // argument (`view`), a tensor is viewed in place: the host keeps it alive
  // for the call; what outlives the call is copied into the heap.
  std::optional<vm::Value> ToVm(alea_value v, const vm::ExportType& t, bool view);

  // The host value of `v` (borrowed), of type `t`; tensors are copied out
  // (into `into` for a top-level tensor when given). The caller checked
  // TooDeep.
  alea_value FromVm(vm::Value v, const vm::ExportType& t, void* into = nullptr) const;

  // Whether the VM value `v` of type T(type) nests deeper than kMaxDepth.
  bool TooDeep(vm::Value v, uint32_t type) const;

 private:
  static std::optional<vm::Value> Made(vm::Object* o);

  // A record's fields in declaration order: their indexes in the host value.
  std::vector<size_t> RecordOrder(const CompoundObject& c, const vm::TypeDesc& d) const;

  std::string CheckMade(alea_value v, const vm::TypeDesc& d, const Path& at, States& states,
                        int depth) const;

  std::optional<vm::Value> ToVmMade(alea_value v, uint32_t type, bool view);

  vm::Heap& heap_;
  const vm::Module& m_;
};

}  // namespace alea::capi

#endif  // ALEA_EMBED_CAPI_CONVERT_H_
