// `.npy` bytes, as `load_npy` reads them. What parses must survive the round
// trip: written back as `np.save` would write it, it parses to the same
// dtype, shape and elements.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "vm/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alea::vm;
  absl::StatusOr<NpyArray> array =
      ParseNpy(absl::string_view(reinterpret_cast<const char*>(data), size));
  if (!array.ok()) return 0;
  const std::string bytes = SerializeNpy(array->dtype, array->shape, array->data.data());
  absl::StatusOr<NpyArray> again = ParseNpy(bytes);
  if (!again.ok() || again->dtype != array->dtype || again->shape != array->shape ||
      again->data != array->data) {
    __builtin_trap();
  }
  return 0;
}
