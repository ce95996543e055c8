// `alea dis`: a module as text, one instruction per line.
#ifndef ALEA_VM_DISASSEMBLER_H_
#define ALEA_VM_DISASSEMBLER_H_

#include <string>

#include "vm/bytecode.h"

namespace alea::vm {

// Each function (name, specialization, parameters, registers, reference
// registers, captures), then each instruction as
//   `  pc  MNEMONIC  operands   ; resolved names  @line:col`
// then the constants, strings, types, natives and globals tables.
std::string Disassemble(const Module& module);

// One type descriptor as Alea source writes it: `(Int, [Str])`.
std::string TypeName(const Module& module, uint32_t type);

}  // namespace alea::vm

#endif  // ALEA_VM_DISASSEMBLER_H_
