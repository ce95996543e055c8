// A loaded file is read at `:load` and at `:reload`, not with every input: an
// edit on disk (half-saved, or broken) changes nothing until `:reload`, and a
// reload that fails keeps the session as it was.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "alea/alea.h"
#include "alea/tooling.h"
#include "gtest/gtest.h"

namespace alea::tooling {
namespace {

namespace fs = std::filesystem;

struct Printed {
  std::string out;
  std::string err;
};

class SessionFiles : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(testing::TempDir()) /
           ("alea_session_files_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    lib_ = (dir_ / "lib.alea").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void WriteLib(const std::string& text) { std::ofstream(lib_, std::ios::trunc) << text; }

  template <typename Step>
  Printed Run(Step step) {
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    step();
    std::fflush(stdout);
    std::fflush(stderr);
    Printed printed;
    printed.out = testing::internal::GetCapturedStdout();
    printed.err = testing::internal::GetCapturedStderr();
    return printed;
  }

  static alea_vm* NewVm() {
    alea_config config;
    alea_config_init(&config);
    config.jit = 0;
    config.files = ALEA_FILES_FULL;
    return alea_vm_new(&config);
  }

  // The VM first: the session releases its values into it when it goes.
  std::unique_ptr<alea_vm, void (*)(alea_vm*)> vm_{NewVm(), alea_vm_free};
  Session session_{vm_.get(), 0};
  fs::path dir_;
  std::string lib_;
};

TEST_F(SessionFiles, InputsSeeTheFileAsLoadedUntilReload) {
  WriteLib("fn version() -> Int { 1 }\n");
  Printed loaded = Run([&] { session_.Load(lib_); });
  EXPECT_EQ(loaded.err, "");
  EXPECT_NE(loaded.out.find("fn version : () -> Int"), std::string::npos) << loaded.out;

  WriteLib("fn version() -> Int { 2 }\n");
  Printed before = Run([&] { session_.Eval("version()"); });
  EXPECT_EQ(before.out, "- : Int = 1\n");
  EXPECT_EQ(before.err, "");

  Printed reloaded = Run([&] { session_.Reload(); });
  EXPECT_EQ(reloaded.err, "");
  Printed after = Run([&] { session_.Eval("version()"); });
  EXPECT_EQ(after.out, "- : Int = 2\n");
}

TEST_F(SessionFiles, ABrokenFileOnDiskBreaksOnlyTheReload) {
  WriteLib("fn version() -> Int { 1 }\n");
  Run([&] { session_.Load(lib_); });

  WriteLib("fn version() -> Int { \n");  // an editor's half-saved file
  Printed input = Run([&] { session_.Eval("version() + 10"); });
  EXPECT_EQ(input.out, "- : Int = 11\n");
  EXPECT_EQ(input.err, "");

  Printed reload = Run([&] { session_.Reload(); });
  EXPECT_NE(reload.err.find("error"), std::string::npos) << reload.err;
  EXPECT_NE(reload.err.find("lib.alea"), std::string::npos) << reload.err;

  Printed still = Run([&] { session_.Eval("version() + 20"); });
  EXPECT_EQ(still.out, "- : Int = 21\n");
  EXPECT_EQ(still.err, "");

  fs::remove(lib_);  // even gone from disk
  Printed gone = Run([&] { session_.Eval("version() + 30"); });
  EXPECT_EQ(gone.out, "- : Int = 31\n");
  EXPECT_EQ(gone.err, "");
}

}  // namespace
}  // namespace alea::tooling
