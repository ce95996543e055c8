// tooling::Session (include/alea/tooling.h): the public face of SessionImpl
// (session.h), over the VM inside the host's handle.
#include <string>

#include "alea/tooling.h"
#include "embed/capi_internal.h"
#include "tooling/session.h"

namespace alea::tooling {

Session::Session(alea_vm* vm, int64_t seed)
    : vm_(vm), impl_(std::make_unique<SessionImpl>(capi::InternalVm(vm), seed)) {}

Session::~Session() = default;

void Session::Eval(std::string_view input) { impl_->Eval(input); }
void Session::PrintType(std::string_view expr) { impl_->PrintType(std::string(expr)); }
void Session::Time(std::string_view expr) { impl_->Time(std::string(expr)); }
void Session::Disassemble(std::string_view name) { impl_->Disassemble(std::string(name)); }
void Session::Desugar(std::string_view name) { impl_->Desugar(std::string(name)); }
void Session::Load(std::string_view path) { impl_->Load(std::string(path)); }
void Session::Reload() { impl_->Reload(); }
void Session::SetSeed(int64_t seed) { impl_->SetSeed(seed); }
std::vector<std::string> Session::Names() const { return impl_->Names(); }

}  // namespace alea::tooling
