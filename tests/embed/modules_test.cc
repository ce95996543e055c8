// Modules as bytes for hosts (include/alea/vm.h Module::ToBytes, FromBytes):
// a module survives the trip and runs as compiled, its run-time errors
// quote its source, host functions bind to it, and damaged bytes are an
// error naming the byte, never a crash.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"

namespace alea {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kSource[] = R"(extern fn offset() -> Int
fn scale(x: Float, k: Float) -> Float = x * k
fn pick(xs: [Int], i: Int) -> Int = xs[i] + offset()
)";

alea::StatusOr<Module> RoundTrip() {
  alea::StatusOr<Module> m = Compile(kSource, "host.alea");
  if (!m.ok()) return m.status();
  return Module::FromBytes(m->ToBytes());
}

TEST(EmbedModules, ARoundTripRunsAsCompiled) {
  alea::StatusOr<Module> m = RoundTrip();
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(m->function_names(), ::testing::ElementsAre("scale", "pick"));
  Vm vm;
  vm.RegisterFunction("offset", {{}, Type::kInt},
                      [](HostCall&) -> alea::StatusOr<Value> { return Value::Int(100); });
  ASSERT_TRUE(vm.Load(*m).ok());
  alea::StatusOr<Value> r =
      vm.Call(embed_testing::FindOk(vm, "scale", {{Type::kFloat, Type::kFloat}, Type::kFloat}),
              {Value::Float(1.5), Value::Float(4.0)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 6.0);
  Function pick =
      embed_testing::FindOk(vm, "pick", {{Type::Array(Type::kInt), Type::kInt}, Type::kInt});
  r = vm.Call(pick, {Value::Array(Type::kInt, {Value::Int(7)}), Value::Int(0)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 107);
  // A run-time error quotes the source the module carries.
  r = vm.Call(pick, {Value::Array(Type::kInt, {Value::Int(7)}), Value::Int(3)});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("host.alea:3:37: error: index 3 is out of bounds"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("xs[i] + offset()"));
}

TEST(EmbedModules, DamagedBytesAreAnError) {
  alea::StatusOr<Module> m = Compile(kSource, "host.alea");
  ASSERT_TRUE(m.ok()) << m.status();
  const std::string bytes = m->ToBytes();
  EXPECT_THAT(std::string(Module::FromBytes("fn main() = 1").status().message()),
              StartsWith("malformed module: byte 0: not an Alea module"));
  EXPECT_THAT(std::string(Module::FromBytes(bytes.substr(0, bytes.size() - 3)).status().message()),
              StartsWith("malformed module: byte "));
  // Every byte flipped in turn: an error or a module that verifies.
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string broken = bytes;
    broken[i] = static_cast<char>(broken[i] ^ 0x5a);
    alea::StatusOr<Module> b = Module::FromBytes(broken);
    if (!b.ok()) {
      EXPECT_THAT(std::string(b.status().message()), StartsWith("malformed module: ")) << i;
    }
  }
}

TEST(EmbedModules, ImportsThroughTheHostsReader) {
  std::vector<std::string> asked;
  auto reader = [&](std::string_view path) -> std::optional<std::string> {
    asked.emplace_back(path);
    if (path == "lib/util.alea") return "fn triple(x: Int) -> Int = 3 * x\n";
    return std::nullopt;
  };
  alea::StatusOr<Module> m =
      Compile("import \"util.alea\"\nfn f(x: Int) -> Int = triple(x)\n", "lib/main.alea", reader);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(asked, std::vector<std::string>{"lib/util.alea"});
  Vm vm;
  ASSERT_TRUE(vm.Load(*m).ok());
  alea::StatusOr<Value> r =
      vm.Call(embed_testing::FindOk(vm, "f", {{Type::kInt}, Type::kInt}), {Value::Int(2)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 6);
  m = Compile("import \"gone.alea\"\nfn f() -> Int = 1\n", "main.alea", reader);
  EXPECT_EQ(m.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(m.status().message(), HasSubstr("No such file or directory"));
}

TEST(EmbedModules, AnEmptyModuleHasBytesThatLoadNothing) {
  alea::StatusOr<Module> m = Module::FromBytes(Module().ToBytes());
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->function_names().empty());
}

}  // namespace
}  // namespace alea
