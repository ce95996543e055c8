// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF), the encoding every Str holds. The lexer has its own copy for
// source text, because lang/ depends on no other directory of ours.
#ifndef ALEA_VM_UTF8_H_
#define ALEA_VM_UTF8_H_

#include <cstddef>
#include <string_view>

namespace alea::vm {

// The length (1 to 4) of the well-formed sequence starting at text[i], or 0
// when none starts there. i < text.size().
size_t Utf8SequenceLength(std::string_view text, size_t i);

// The code point of the well-formed sequence of `length` bytes (what
// Utf8SequenceLength gave, not 0) starting at text[i].
char32_t Utf8CodePoint(std::string_view text, size_t i, size_t length);

// The offset of the first byte of `text` that is not part of a well-formed
// sequence, or text.size() when all of it is UTF-8.
size_t FirstInvalidUtf8(std::string_view text);

}  // namespace alea::vm

#endif  // ALEA_VM_UTF8_H_
