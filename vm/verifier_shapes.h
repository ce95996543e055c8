// The verifier's view of values (vm/verifier.h): shapes, what an instruction
// or native may rely on a reference being, interned so that equal shapes are
// equal numbers. Plain values (Int, Float, Bool, unit, dtypes) are one shape,
// since nothing reads them as anything but bits; a tensor is one shape
// whatever its dtype (natives check dtypes at run time). Records and variants
// are nominal: the module's type descriptor is their identity.
#ifndef ALEA_VM_VERIFIER_SHAPES_H_
#define ALEA_VM_VERIFIER_SHAPES_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "vm/bytecode.h"
#include "vm/native_signature.h"

namespace alea::vm::verifier {

enum class ShapeKind : uint8_t {
  kPlain,
  kStr,
  kTensor,
  kRandState,
  kPlot,
  kArray,     // children[0]: the elements
  kTuple,     // children: the fields
  kFunction,  // children: the parameters, then the result
  kNamed,     // a record or variant: `type` is its descriptor
  kNullary,   // the shared object LOADTAG makes: `type` is its tag
  kNever,     // no value (the elements of `[]`)
  kOption,    // a native's Option(children[0]): None (tag 0) | Some (tag 1), which
              // fits any variant of that structure (the module may declare none)
};

struct Shape {
  ShapeKind kind = ShapeKind::kPlain;
  uint32_t type = 0;
  std::vector<uint32_t> children;
};

class Shapes {
 public:
  explicit Shapes(const Module& m);

  static constexpr uint32_t kPlain = 0;
  static constexpr uint32_t kStr = 1;
  static constexpr uint32_t kTensor = 2;
  static constexpr uint32_t kRandState = 3;
  static constexpr uint32_t kNever = 4;
  static constexpr uint32_t kPlot = 5;

  const Shape& operator[](uint32_t id) const { return shapes_[id]; }
  uint32_t Intern(Shape s);
  // The shape of values of type descriptor `t` (checked: CheckTypes()).
  uint32_t OfType(uint32_t t);
  bool IsReference(uint32_t id) const { return id != kPlain; }
  bool IsVariant(uint32_t id) const;
  // Constructors of variant shape `id` (0 when it is not one).
  size_t Cases(uint32_t id) const;
  // The field shapes of a tuple, a record, or case `tag` of a variant;
  // nullopt when `id` has no such fields.
  std::optional<std::vector<uint32_t>> Fields(uint32_t id, int tag);
  // Field `c` of what Fields(id, tag) gives, without building the list;
  // nullopt when there is no such field (*count: how many there are).
  std::optional<uint32_t> Field(uint32_t id, int tag, uint32_t c, size_t* count);
  // Whether a value of shape `a` may stand where `b` is expected.
  bool Leq(uint32_t a, uint32_t b);
  // The least shape above both, if any.
  std::optional<uint32_t> Join(uint32_t a, uint32_t b);
  // `fn(params) -> result` of function `f`'s signature.
  uint32_t OfFunction(const Function& f);
  // The module's variant type `Option(elem)` (the prelude's None | Some),
  // which natives returning one build; nullopt when the module has none.
  std::optional<uint32_t> OptionOf(uint32_t elem);

  std::string Name(uint32_t id) const;
  size_t module_types() const { return m_.types.size(); }

 private:
  std::optional<uint32_t> Join(uint32_t a, uint32_t b, int depth);

  const Module& m_;
  std::vector<Shape> shapes_;
  absl::flat_hash_map<std::tuple<uint8_t, uint32_t, std::vector<uint32_t>>, uint32_t> interned_;
  std::vector<int64_t> of_type_;  // -1 until computed
};

// A native's signature applied to argument shapes: binds its variables,
// checks every argument, gives the result's shape. `constants` holds each
// argument's known constant (for `type a`), `refs` whether its register is a
// reference one.
struct NativeArgument {
  uint32_t shape = Shapes::kPlain;
  bool in_reference_register = false;
  std::optional<int64_t> constant = std::nullopt;
  bool lent = false;  // a closure lent uncounted, in a plain register
};
// The result's shape, or an error (what does not fit).
std::optional<uint32_t> ApplySignature(Shapes& shapes, const NativeSignature& sig,
                                       absl::Span<const NativeArgument> args, std::string* error);

}  // namespace alea::vm::verifier

#endif  // ALEA_VM_VERIFIER_SHAPES_H_
