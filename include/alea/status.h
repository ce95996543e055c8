// Errors of the C++ embedding API (alea/vm.h, alea/compiler.h): a code and a
// message, and a value or an error. Alea's own types, so that a host's
// build need not share Alea's libraries (no Abseil, whose ABI changes with
// its build); the codes are the C API's (alea/alea.h `alea_code`).
#ifndef ALEA_STATUS_H_
#define ALEA_STATUS_H_

#include <cstdlib>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

namespace alea {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument = 1,     // a compile error; arguments or a signature that do not fit
  kNotFound = 2,            // no such function, extern or import
  kFailedPrecondition = 3,  // no module loaded; a Function of an earlier Load
  kResourceExhausted = 4,   // heap budget, call depth, instruction budget
  kCancelled = 5,           // Vm::Interrupt
  kAborted = 6,             // any other run-time error of the program
  kOutOfRange = 7,          // a result too large or too deep for where it goes
  kInternal = 8,
};

// "OK", "INVALID_ARGUMENT"...
inline const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kResourceExhausted:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::kCancelled:
      return "CANCELLED";
    case StatusCode::kAborted:
      return "ABORTED";
    case StatusCode::kOutOfRange:
      return "OUT_OF_RANGE";
    case StatusCode::kInternal:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

// OK, or an error: its code and message (for anything the program did, the
// diagnostic exactly as `alea run` prints it).
class Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }
  // "OK", or "ABORTED: message".
  std::string ToString() const {
    return ok() ? "OK" : std::string(StatusCodeName(code_)) + ": " + message_;
  }
  friend std::ostream& operator<<(std::ostream& out, const Status& s) {
    return out << s.ToString();
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }

// A T, or the error why there is none.
template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit, as a return value
  // An error; an OK status here is a mistake, kept as an internal error.
  StatusOr(Status status)  // NOLINT: implicit, as a return value
      : status_(status.ok() ? Status(StatusCode::kInternal, "a StatusOr made from OK")
                            : std::move(status)) {}

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // The value; asking an error for one aborts the program.
  const T& value() const& { return Checked(), *value_; }
  T& value() & { return Checked(), *value_; }
  T&& value() && { return Checked(), *std::move(value_); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  void Checked() const {
    if (!value_) std::abort();
  }
  Status status_;
  std::optional<T> value_;
};

}  // namespace alea

#endif  // ALEA_STATUS_H_
