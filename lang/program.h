// A whole program: the root file and everything it imports, loaded once each.
#ifndef ALEA_LANG_PROGRAM_H_
#define ALEA_LANG_PROGRAM_H_

#include <memory>
#include <vector>

#include "lang/ast.h"

namespace alea::lang {

struct Program {
  // In dependency order: a module comes after every module it imports, so the
  // root file is last. Top-level names are unique across the whole program
  // (the loader reports a name defined twice, naming both places).
  std::vector<std::unique_ptr<Module>> modules;
  // visible[i]: the indexes of the modules whose top-level names module i
  // sees: itself first, then the modules it imports directly (not the ones
  // they import in turn).
  std::vector<std::vector<int>> visible;
};

}  // namespace alea::lang

#endif  // ALEA_LANG_PROGRAM_H_
