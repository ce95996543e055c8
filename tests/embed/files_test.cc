// What an embedded VM's programs may do with files (VmOptions::files):
// nothing by default; under a root directory, read-only or read-write;
// anything when the host says so.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"

namespace alea {
namespace {

using ::testing::HasSubstr;

constexpr char kSource[] = R"(fn load(path: Str) -> Str = read_text(path)
fn store(path: Str, text: Str) -> () = write_text(path, text)
)";

class EmbedFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = ::testing::TempDir() + "alea_embed_files_" + std::to_string(getpid());
    std::string command = "mkdir -p '" + root_ + "' && printf hello > '" + root_ + "/a.txt'";
    ASSERT_EQ(std::system(command.c_str()), 0);
    alea::StatusOr<Module> m = Compile(kSource, "files.alea");
    ASSERT_TRUE(m.ok()) << m.status();
    module_ = *m;
  }
  void TearDown() override {
    std::string command = "rm -rf '" + root_ + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
  }
  alea::StatusOr<Value> Load(Vm& vm, const std::string& path) {
    return vm.Call(embed_testing::FindOk(vm, "load", {{Type::kStr}, Type::kStr}),
                   {Value::Str(path)});
  }
  alea::StatusOr<Value> Store(Vm& vm, const std::string& path) {
    return vm.Call(embed_testing::FindOk(vm, "store", {{Type::kStr, Type::kStr}, Type::kUnit}),
                   {Value::Str(path), Value::Str("new")});
  }
  std::string root_;
  Module module_;
};

TEST_F(EmbedFiles, NoneByDefault) {
  Vm vm;
  ASSERT_TRUE(vm.Load(module_).ok());
  alea::StatusOr<Value> r = Load(vm, root_ + "/a.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("a.txt: file access is not allowed here"));
}

TEST_F(EmbedFiles, ReadOnlyUnderARoot) {
  VmOptions options;
  options.files = FileAccess::ReadOnly(root_);
  Vm vm(options);
  ASSERT_TRUE(vm.Load(module_).ok());
  alea::StatusOr<Value> r = Load(vm, "a.txt");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsStr(), "hello");
  EXPECT_THAT(Load(vm, root_ + "/a.txt").status().message(), HasSubstr("outside the sandbox"));
  EXPECT_THAT(Store(vm, "b.txt").status().message(), HasSubstr("b.txt: cannot write"));
}

TEST_F(EmbedFiles, ReadWriteUnderARootAndFull) {
  VmOptions options;
  options.files = FileAccess::ReadWrite(root_);
  Vm vm(options);
  ASSERT_TRUE(vm.Load(module_).ok());
  ASSERT_TRUE(Store(vm, "b.txt").ok());
  EXPECT_THAT(Store(vm, "../b.txt").status().message(), HasSubstr("outside the sandbox"));
  Vm full({.files = FileAccess::Full()});
  ASSERT_TRUE(full.Load(module_).ok());
  alea::StatusOr<Value> r = Load(full, root_ + "/b.txt");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsStr(), "new");
}

}  // namespace
}  // namespace alea
