// The sandbox (vm/files.h FileAccess): reads and writes under a root
// directory, and every way out of it refused.
#include "vm/files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace alea::vm {
namespace {

using ::testing::HasSubstr;

// Each test runs twice: with the kernel's openat2, and with the walk used
// where the kernel has none.
class Sandbox : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ForceSandboxWalkForTesting(GetParam());
    base_ = ::testing::TempDir() + "alea_sandbox_" + std::to_string(getpid()) + "/";
    root_ = base_ + "root";
    mkdir(base_.c_str(), 0755);
    mkdir(root_.c_str(), 0755);
    mkdir((root_ + "/sub").c_str(), 0755);
    Write(root_ + "/in.txt", "inside");
    Write(root_ + "/sub/deep.txt", "deeper");
    Write(base_ + "secret.txt", "outside");
    symlink((base_ + "secret.txt").c_str(), (root_ + "/link.txt").c_str());
    symlink(base_.c_str(), (root_ + "/dirlink").c_str());
    symlink("in.txt", (root_ + "/inner_link.txt").c_str());
  }
  void TearDown() override {
    ForceSandboxWalkForTesting(false);
    std::string command = "rm -rf '" + base_ + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
  }
  static void Write(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  absl::Status WriteText(const FileAccess& access, const std::string& path,
                         const std::string& text) {
    return WriteFileAtomically(access, path, [&](std::FILE* f) {
      return std::fwrite(text.data(), 1, text.size(), f) == text.size();
    });
  }
  FileAccess ReadWrite() const { return {FileAccess::Mode::kReadWrite, root_}; }
  FileAccess ReadOnly() const { return {FileAccess::Mode::kReadOnly, root_}; }

  std::string base_, root_;
};

TEST_P(Sandbox, ReadsAndWritesBeneathTheRoot) {
  EXPECT_EQ(ReadFile(ReadWrite(), "in.txt").value(), "inside");
  EXPECT_EQ(ReadFile(ReadWrite(), "sub/deep.txt").value(), "deeper");
  EXPECT_EQ(ReadFile(ReadWrite(), "./sub/../in.txt").value(), "inside");  // `..` inside stays
  ASSERT_TRUE(WriteText(ReadWrite(), "sub/new.txt", "written").ok());
  EXPECT_EQ(ReadFile(FileAccess{}, root_ + "/sub/new.txt").value(), "written");
  ASSERT_TRUE(WriteText(ReadWrite(), "top.txt", "top").ok());
  EXPECT_EQ(ReadFile(ReadOnly(), "top.txt").value(), "top");
}

TEST_P(Sandbox, RefusesEveryWayOut) {
  for (const std::string& path :
       {std::string("../secret.txt"), base_ + "secret.txt", std::string("sub/../../secret.txt")}) {
    absl::StatusOr<std::string> read = ReadFile(ReadWrite(), path);
    ASSERT_FALSE(read.ok()) << path;
    EXPECT_THAT(read.status().message(), HasSubstr("outside the sandbox")) << path;
    absl::Status write = WriteText(ReadWrite(), path, "x");
    EXPECT_THAT(write.message(), HasSubstr("outside the sandbox")) << path;
  }
  // Symbolic links, out or even in, at the end or on the way.
  for (const std::string path : {"link.txt", "dirlink/secret.txt", "inner_link.txt"}) {
    absl::StatusOr<std::string> read = ReadFile(ReadWrite(), path);
    ASSERT_FALSE(read.ok()) << path;
    EXPECT_THAT(read.status().message(), HasSubstr("symbolic link")) << path;
  }
  EXPECT_THAT(WriteText(ReadWrite(), "dirlink/secret.txt", "x").message(),
              HasSubstr("symbolic link"));
  // Writing over a link replaces the link itself: the file it named is untouched.
  ASSERT_TRUE(WriteText(ReadWrite(), "link.txt", "replaced").ok());
  EXPECT_EQ(ReadFile(FileAccess{}, base_ + "secret.txt").value(), "outside");
}

TEST_P(Sandbox, ReadOnlyAndNoneRefuseWhatTheyMust) {
  absl::Status write = WriteText(ReadOnly(), "in.txt", "x");
  EXPECT_EQ(write.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(write.message(), HasSubstr("in.txt: cannot write: files under"));
  EXPECT_EQ(ReadFile(FileAccess{}, root_ + "/in.txt").value(), "inside");
  const FileAccess none{FileAccess::Mode::kNone, ""};
  EXPECT_THAT(ReadFile(none, "in.txt").status().message(),
              HasSubstr("in.txt: file access is not allowed here"));
  EXPECT_THAT(WriteText(none, "in.txt", "x").message(), HasSubstr("not allowed here"));
}

TEST_P(Sandbox, MissingFilesAndRootsAreOrdinaryErrors) {
  absl::StatusOr<std::string> missing = ReadFile(ReadWrite(), "nope.txt");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("nope.txt: cannot open"));
  const FileAccess gone{FileAccess::Mode::kReadWrite, base_ + "no_such_root"};
  EXPECT_THAT(ReadFile(gone, "in.txt").status().message(), HasSubstr("cannot open the sandbox"));
  EXPECT_THAT(WriteText(ReadWrite(), "sub/", "x").message(), HasSubstr("cannot create"));
}

INSTANTIATE_TEST_SUITE_P(OpenAt2AndWalk, Sandbox, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Walk" : "OpenAt2";
                         });

}  // namespace
TEST_P(Sandbox, ReadStopsAtItsLimit) {
  EXPECT_EQ(ReadFile(ReadWrite(), "in.txt", 6).value(), "inside");
  absl::StatusOr<std::string> cut = ReadFile(ReadWrite(), "in.txt", 5);
  EXPECT_EQ(cut.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(cut.status().message(), HasSubstr("in.txt: larger than 5 bytes"));
  // A device that never ends: refused at the limit, not read until memory runs out.
  EXPECT_EQ(ReadFile(FileAccess{}, "/dev/zero", 1 << 20).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace alea::vm
