// Ctrl-C in the REPL: while an input runs it interrupts the VM (which stops
// with "interrupted" at its next call or backward jump); at the prompt it
// discards the line being typed. The handler is installed without
// SA_RESTART, so that a read waiting at the prompt returns with EINTR.
#ifndef ALEA_REPL_INTERRUPT_H_
#define ALEA_REPL_INTERRUPT_H_

#include "alea/alea.h"

namespace alea::repl {

void InstallInterruptHandler();

// True once after a Ctrl-C that came while no input was running.
bool TakePromptInterrupt();
bool PromptInterruptPending();

// While one lives, Ctrl-C interrupts `vm`.
class Evaluating {
 public:
  explicit Evaluating(alea_vm* vm);
  ~Evaluating();
  Evaluating(const Evaluating&) = delete;
  Evaluating& operator=(const Evaluating&) = delete;
};

}  // namespace alea::repl

#endif  // ALEA_REPL_INTERRUPT_H_
