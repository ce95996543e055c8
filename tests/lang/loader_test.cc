#include "lang/loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace alea::lang {
namespace {

namespace fs = std::filesystem;

// A scratch directory of .alea files, removed at the end of the test.
class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("alea_loader_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "lib");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  std::string Path(const std::string& name) { return (dir_ / name).string(); }

  // Loads `root` and returns the rendered diagnostics with the directory
  // prefix removed, so expectations are independent of where the test runs.
  std::string Load(const std::string& root, Program* out = nullptr) {
    SourceManager sources;
    Diagnostics diags;
    std::optional<Program> program = LoadProgram(Path(root), sources, diags);
    std::string text = RenderAll(sources, diags);
    std::string prefix = dir_.string() + "/";
    for (size_t at; (at = text.find(prefix)) != std::string::npos;) text.erase(at, prefix.size());
    if (out && program) *out = std::move(*program);
    return text;
  }

  fs::path dir_;
};

TEST_F(LoaderTest, LoadsEachFileOnceInDependencyOrder) {
  Write("main.alea", "import \"lib/a.alea\"\nimport \"lib/b.alea\"\nfn main() = 1\n");
  Write("lib/a.alea", "import \"b.alea\"\nfn a() = 1\n");
  Write("lib/b.alea", "fn b() = 2\n");
  Program program;
  EXPECT_EQ(Load("main.alea", &program), "");
  ASSERT_EQ(program.modules.size(), 3u);
  EXPECT_EQ(program.modules[0]->fns[0]->name, "b");
  EXPECT_EQ(program.modules[1]->fns[0]->name, "a");
  EXPECT_EQ(program.modules[2]->fns[0]->name, "main");
  EXPECT_EQ(program.visible[2], (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(program.visible[1], (std::vector<int>{1, 0}));
  EXPECT_EQ(program.visible[0], (std::vector<int>{0}));
}

TEST_F(LoaderTest, MissingRootIsAnErrorWithoutLocation) {
  EXPECT_EQ(Load("nope.alea"), "alea: error: cannot open `nope.alea`: No such file or directory\n");
  EXPECT_EQ(Load("lib"), "alea: error: cannot open `lib`: it is a directory\n");
}

TEST_F(LoaderTest, MissingImportPointsAtThePath) {
  Write("main.alea", "import \"lib/gone.alea\"\n");
  EXPECT_EQ(Load("main.alea"),
            "main.alea:1:8: error: cannot import `lib/gone.alea`: No such file or directory\n"
            "    1 | import \"lib/gone.alea\"\n"
            "      |        ^~~~~~~~~~~~~~~\n"
            "help: import paths are relative to the importing file\n");
}

TEST_F(LoaderTest, CycleNamesEveryFile) {
  Write("main.alea", "import \"lib/a.alea\"\n");
  Write("lib/a.alea", "import \"b.alea\"\n");
  Write("lib/b.alea", "import \"a.alea\"\n");
  std::string out = Load("main.alea");
  EXPECT_NE(out.find("lib/b.alea:1:8: error: import cycle: `lib/a.alea` imports `lib/b.alea` "
                     "imports `lib/a.alea`"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("lib/a.alea:1:8: note: `lib/b.alea` is imported here"), std::string::npos)
      << out;
}

TEST_F(LoaderTest, SelfImportIsACycle) {
  Write("main.alea", "import \"main.alea\"\n");
  EXPECT_NE(Load("main.alea").find("import cycle: `main.alea` imports `main.alea`"),
            std::string::npos);
}

TEST_F(LoaderTest, NameDefinedTwiceAcrossFilesNamesBoth) {
  Write("main.alea", "import \"lib/a.alea\"\nfn helper() = 2\n");
  Write("lib/a.alea", "let (x, helper) = (1, 2)\n");
  std::string out = Load("main.alea");
  EXPECT_NE(out.find("main.alea:2:4: error: `helper` is defined twice"), std::string::npos) << out;
  EXPECT_NE(out.find("lib/a.alea:1:9: note: `helper` is first defined here"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace alea::lang
