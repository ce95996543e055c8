#include "vm/randstate.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace alea::vm {

const char* RandOpName(Op op) {
  switch (op) {
    case Op::KEY:
      return "key";
    case Op::SPLIT:
    case Op::SPLIT_U:
      return "split";
    case Op::SPLITN:
      return "split_n";
    case Op::FOLDIN:
    case Op::FOLDIN_U:
      return "fold_in";
    case Op::NEXT:
    case Op::NEXT_U:
      return "next";
    case Op::CONSUME:
      return "with";
    case Op::BITS:
      return "bits";
    case Op::UNIFORM:
    case Op::UNIFORM_S:
      return "uniform";
    case Op::NORMAL:
    case Op::NORMAL_S:
      return "normal";
    case Op::BERNOULLI:
    case Op::BERNOULLI_S:
      return "bernoulli";
    case Op::RANDINT:
    case Op::RANDINT_S:
      return "randint";
    case Op::EXPONENTIAL:
    case Op::EXPONENTIAL_S:
      return "exponential";
    case Op::CATEGORICAL:
      return "categorical";
    case Op::PERMUTATION:
      return "permutation";
    case Op::DROPOUT:
      return "dropout";
    default:
      return nullptr;
  }
}

namespace {

// "VERB here by `op`" for a site of the loaded module (its note points at it),
// "VERB by `op` in code loaded earlier" for one of an earlier module.
std::string SiteText(const char* verb, const char* by, bool loaded) {
  std::string out = absl::StrCat(verb, loaded ? " here" : "");
  if (by != nullptr) absl::StrAppend(&out, " by ", by);
  if (!loaded) absl::StrAppend(&out, " in code loaded earlier (in the REPL: an earlier input)");
  return out;
}

std::string Quoted(const char* name) { return absl::StrCat("`", name, "`"); }

}  // namespace

std::optional<std::string> CreatedNote(const RandSite& site, bool loaded) {
  if (site.function == RandSite::kNoFunction) return std::nullopt;
  if (site.op == Op::SITE) {
    return SiteText("the state was created", "the ambient random stream", loaded);
  }
  const char* name = RandOpName(site.op);
  if (name == nullptr) return SiteText("the state was created", nullptr, loaded);
  return SiteText("the state was created", Quoted(name).c_str(), loaded);
}

std::string ConsumedNote(const RandSite& site, bool loaded, const char* native) {
  const char* name = site.op == Op::CALLN ? native : RandOpName(site.op);
  if (name == nullptr) return SiteText("first consumed", nullptr, loaded);
  return SiteText("first consumed", Quoted(name).c_str(), loaded);
}

std::optional<SourceLocation> LocationOf(const Module& module, const RandSite& site) {
  if (site.function >= module.functions.size()) return std::nullopt;
  const Function& fn = module.functions[site.function];
  if (site.pc >= fn.code.size()) return std::nullopt;
  return LocationAt(fn, site.pc);
}

void AppendRandState(std::string* out, const random::RandState& s) {
  absl::StrAppend(out, "RandState(", s.key.k0, ", ", s.key.k1, ", ", s.n, ")");
}

}  // namespace alea::vm
