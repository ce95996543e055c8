// Writes the fuzzers' dictionaries from the tables they describe, so that a
// new keyword, builtin, REPL command or opcode reaches the fuzzers without
// anyone editing a list: `make_dictionaries DIR` writes DIR/source.dict (the
// language's tokens, builtins and prelude names; also the REPL's, with its
// commands: DIR/repl.dict) and DIR/module.dict (the module magic, and each
// opcode as the first byte of an instruction).
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "lang/builtins.h"
#include "lang/prelude.h"
#include "lang/token.h"
#include "repl/repl_commands.h"
#include "vm/bytecode.h"
#include "vm/module_file.h"

namespace {

// One libFuzzer dictionary entry: the bytes quoted, with `"`, `\` and
// anything unprintable as \xNN.
std::string Entry(std::string_view bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"\n";
}

std::vector<std::string> SourceWords() {
  using alea::lang::TokenKind;
  std::vector<std::string> words;
  // Every token with a fixed spelling (keywords and punctuation): "`fn`".
  for (int k = static_cast<int>(TokenKind::kUnderscore); k <= static_cast<int>(TokenKind::kGe);
       ++k) {
    const std::string_view spelling = alea::lang::Spelling(static_cast<TokenKind>(k));
    words.emplace_back(spelling.substr(1, spelling.size() - 2));
  }
  for (std::string_view name : alea::lang::BuiltinNames()) words.emplace_back(name);
  for (const alea::lang::PreludeType& type : alea::lang::PreludeTypes()) {
    words.emplace_back(type.name);
    for (const alea::lang::PreludeCtor& c : alea::lang::PreludeCtors(type))
      words.emplace_back(c.name);
  }
  for (const char* extra : {"uses rng", "key(", "f32", "i32", "u32", "bool", "Tensor", "RandState",
                            "\"", "//", "1e39", "9223372036854775807", "0.5", "\n"}) {
    words.emplace_back(extra);
  }
  return words;
}

bool Write(const std::string& path, const std::vector<std::string>& words) {
  std::ofstream out(path, std::ios::binary);
  for (const std::string& w : words) out << Entry(w);
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_dictionaries DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::string> source = SourceWords();
  std::vector<std::string> repl = source;
  for (const alea::repl::ReplCommand& c : alea::repl::ReplCommands()) {
    repl.push_back(std::string(":") + c.name + " ");
  }
  std::vector<std::string> module = {
      std::string(alea::vm::kModuleMagic, alea::vm::kModuleMagicSize)};
  for (int op = 0; op < alea::vm::kOpCount; ++op)
    module.push_back(std::string(1, static_cast<char>(op)));
  if (!Write(dir + "/source.dict", source) || !Write(dir + "/repl.dict", repl) ||
      !Write(dir + "/module.dict", module)) {
    std::fprintf(stderr, "make_dictionaries: cannot write into %s\n", dir.c_str());
    return 1;
  }
  return 0;
}
