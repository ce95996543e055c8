#include "vm/npy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace alea::vm {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Files written by NumPy 1.24's np.save (scripts/gen_npy_cases.py).
std::string DataPath(const std::string& name) {
  return absl::StrCat(ALEA_TEST_DATA_DIR, "/npy/", name);
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh path per process: ctest runs tests of this binary in parallel.
std::string TempPath(const std::string& name) {
  return absl::StrCat(::testing::TempDir(), "/alea_npy_", getpid(), "_", name);
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <typename T>
std::vector<T> Values(const NpyArray& array) {
  std::vector<T> out(array.data.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), array.data.data(), out.size() * sizeof(T));
  return out;
}

// A .npy file with a hand-written header dict, padded as NumPy pads.
std::string MakeNpy(const std::string& dict, const std::string& data, int major = 1) {
  const size_t length_size = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((6 + 2 + length_size + header.size() + 1) % 64 != 0) header.push_back(' ');
  header.push_back('\n');
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  for (size_t i = 0; i < length_size; ++i)
    out.push_back(static_cast<char>(header.size() >> (8 * i)));
  return out + header + data;
}

std::string F32Data(std::vector<float> values) {
  std::vector<uint8_t> bytes = Bytes(values);
  return std::string(bytes.begin(), bytes.end());
}

std::string ErrorOf(absl::string_view bytes) {
  absl::StatusOr<NpyArray> array = ParseNpy(bytes);
  EXPECT_FALSE(array.ok()) << "parsed: " << bytes;
  return array.ok() ? "" : std::string(array.status().message());
}

const DType kAllDTypes[] = {DType::kF32, DType::kI32, DType::kU32, DType::kBool};

// Deterministic contents for any dtype: bools are 0/1, the rest vary in every byte.
std::vector<uint8_t> Pattern(DType dtype, int64_t count) {
  std::vector<uint8_t> data(count * NpyElementSize(dtype));
  for (size_t i = 0; i < data.size(); ++i) {
    data[i] = dtype == DType::kBool ? (i * 7 + 3) % 3 == 0 : static_cast<uint8_t>(i * 37 + 11);
  }
  return data;
}

TEST(Npy, RoundTripsEveryDTypeAndShape) {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {0}, {1}, {5}, {0, 4}, {4, 0}, {2, 3}, {2, 0, 3}, {2, 3, 4}, {1, 2, 3, 4}, {3, 1, 2, 1}};
  for (DType dtype : kAllDTypes) {
    for (const std::vector<int64_t>& shape : shapes) {
      SCOPED_TRACE(absl::StrCat("dtype ", static_cast<int>(dtype), " ndim ", shape.size()));
      const int64_t count = *NpyElementCount(dtype, shape);
      const std::vector<uint8_t> data = Pattern(dtype, count);
      const std::string bytes = SerializeNpy(dtype, shape, data.data());
      // The data starts at a multiple of 64, after a newline (as np.save).
      const size_t header_end = bytes.size() - data.size();
      EXPECT_EQ(header_end % 64, 0u);
      EXPECT_EQ(bytes[header_end - 1], '\n');
      absl::StatusOr<NpyArray> array = ParseNpy(bytes);
      ASSERT_TRUE(array.ok()) << array.status();
      EXPECT_EQ(array->dtype, dtype);
      EXPECT_EQ(array->shape, shape);
      EXPECT_EQ(array->data, data);
    }
  }
}

TEST(Npy, WritesAndReadsFiles) {
  const std::string path = TempPath("file.npy");
  const std::vector<int32_t> values = {7, -8, 9, 10, -11, 12};
  const std::vector<int64_t> shape = {3, 2};
  ASSERT_TRUE(WriteNpy(FileAccess{}, path, DType::kI32, shape, values.data()).ok());
  absl::StatusOr<NpyArray> array = ReadNpy(FileAccess{}, path);
  ASSERT_TRUE(array.ok()) << array.status();
  EXPECT_EQ(array->dtype, DType::kI32);
  EXPECT_EQ(array->shape, shape);
  EXPECT_EQ(Values<int32_t>(*array), values);
  EXPECT_EQ(ReadBytes(path), SerializeNpy(DType::kI32, shape, values.data()));
  std::remove(path.c_str());
}

TEST(Npy, WritesLargeDataInChunks) {
  // More than WriteNpy's 64 KiB chunk, and not a multiple of it.
  const std::string path = TempPath("large.npy");
  const std::vector<int64_t> shape = {70001};
  const std::vector<uint8_t> data = Pattern(DType::kF32, shape[0]);
  ASSERT_TRUE(WriteNpy(FileAccess{}, path, DType::kF32, shape, data.data()).ok());
  absl::StatusOr<NpyArray> array = ReadNpy(FileAccess{}, path);
  ASSERT_TRUE(array.ok()) << array.status();
  EXPECT_EQ(array->data, data);
  std::remove(path.c_str());
}

TEST(Npy, NormalizesBoolsOnWrite) {
  const uint8_t values[] = {0, 1, 2, 255};
  const int64_t shape[] = {4};
  absl::StatusOr<NpyArray> array = ParseNpy(SerializeNpy(DType::kBool, shape, values));
  ASSERT_TRUE(array.ok()) << array.status();
  EXPECT_THAT(array->data, ElementsAre(0, 1, 1, 1));
}

struct Reference {
  const char* file;
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

std::vector<Reference> References() {
  return {
      {"f32_2x3.npy", DType::kF32, {2, 3}, Bytes<float>({-1.5f, -0.75f, 0.0f, 0.75f, 1.5f, 2.25f})},
      {"f32_scalar.npy", DType::kF32, {}, Bytes<float>({3.25f})},
      {"f32_0x4.npy", DType::kF32, {0, 4}, {}},
      {"i32_5.npy",
       DType::kI32,
       {5},
       Bytes<int32_t>(
           {std::numeric_limits<int32_t>::min(), -1, 0, 1, std::numeric_limits<int32_t>::max()})},
      {"u32_2x2.npy", DType::kU32, {2, 2}, Bytes<uint32_t>({0, 1, 0xDEADBEEF, 0xFFFFFFFF})},
      {"bool_3.npy", DType::kBool, {3}, {1, 0, 1}},
      {"i32_1x2x3x4.npy",
       DType::kI32,
       {1, 2, 3, 4},
       [] {
         std::vector<int32_t> v(24);
         for (int i = 0; i < 24; ++i) v[i] = i;
         return Bytes(v);
       }()},
  };
}

TEST(Npy, ReadsNumPyFilesAndWritesTheSameBytes) {
  for (const Reference& ref : References()) {
    SCOPED_TRACE(ref.file);
    const std::string bytes = ReadBytes(DataPath(ref.file));
    ASSERT_FALSE(bytes.empty()) << "missing " << DataPath(ref.file);
    absl::StatusOr<NpyArray> array = ReadNpy(FileAccess{}, DataPath(ref.file));
    ASSERT_TRUE(array.ok()) << array.status();
    EXPECT_EQ(array->dtype, ref.dtype);
    EXPECT_EQ(array->shape, ref.shape);
    EXPECT_EQ(array->data, ref.data);
    EXPECT_EQ(SerializeNpy(ref.dtype, ref.shape, ref.data.data()), bytes);
  }
}

TEST(Npy, ReadsVersions2And3) {
  for (const char* file : {"f32_2x3_v2.npy", "f32_2x3_v3.npy"}) {
    SCOPED_TRACE(file);
    absl::StatusOr<NpyArray> array = ReadNpy(FileAccess{}, DataPath(file));
    ASSERT_TRUE(array.ok()) << array.status();
    EXPECT_EQ(array->dtype, DType::kF32);
    EXPECT_THAT(array->shape, ElementsAre(2, 3));
    EXPECT_THAT(Values<float>(*array), ElementsAre(0, 1, 2, 3, 4, 5));
  }
}

TEST(Npy, ExplainsUnsupportedNumPyFiles) {
  struct Case {
    const char* file;
    std::vector<const char*> parts;
  } cases[] = {
      {"f64_2.npy",
       {"f64_2.npy: dtype `<f8` is not supported", "<f4 (f32)", "|b1 (bool)",
        "a.astype(np.float32)"}},
      {"i64_2.npy", {"dtype `<i8` is not supported", "a.astype(np.int32)"}},
      {"u8_2.npy", {"dtype `|u1` is not supported", "a.astype(np.uint32)"}},
      {"f32_be_2.npy", {"dtype `>f4` is big-endian", "a.astype('<f4')"}},
      {"f32_fortran_2x3.npy", {"Fortran", "C order only", "np.ascontiguousarray(a)"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    absl::StatusOr<NpyArray> array = ReadNpy(FileAccess{}, DataPath(c.file));
    ASSERT_FALSE(array.ok());
    EXPECT_EQ(array.status().code(), absl::StatusCode::kInvalidArgument);
    for (const char* part : c.parts) EXPECT_THAT(array.status().message(), HasSubstr(part));
  }
}

TEST(Npy, ParsesHeaderDictsRobustly) {
  const std::string two = F32Data({1.0f, 2.0f});
  struct Case {
    const char* dict;
    std::vector<int64_t> shape;
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", {2}},
      {"{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,)}", {2}},
      {"{'shape':(2,),'fortran_order':False,'descr':'<f4'}", {2}},
      {"  {  'fortran_order' :False ,\n 'descr':'=f4',\t'shape' : ( 2 , ) ,  }  ", {2}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2)}", {1, 2}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,2,),}", {1, 2}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }", {2}},  // Python 2
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 2), }", {1, 1, 1, 1, 2}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dict);
    absl::StatusOr<NpyArray> array = ParseNpy(MakeNpy(c.dict, two));
    ASSERT_TRUE(array.ok()) << array.status();
    EXPECT_EQ(array->dtype, DType::kF32);
    EXPECT_EQ(array->shape, c.shape);
    EXPECT_THAT(Values<float>(*array), ElementsAre(1.0f, 2.0f));
  }
  // Any byte-order mark on a 1-byte bool.
  for (const char* descr : {"|b1", "<b1", "=b1", ">b1"}) {
    absl::StatusOr<NpyArray> array = ParseNpy(MakeNpy(
        absl::StrCat("{'descr': '", descr, "', 'fortran_order': False, 'shape': ()}"), "\1"));
    ASSERT_TRUE(array.ok()) << descr << ": " << array.status();
    EXPECT_EQ(array->dtype, DType::kBool);
    EXPECT_TRUE(array->shape.empty());
  }
  // fortran_order True with one element: still refused (NumPy never writes it).
  EXPECT_THAT(ErrorOf(MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': ()}", "abcd")),
              HasSubstr("Fortran"));
}

TEST(Npy, RejectsMalformedHeaders) {
  const std::string two = F32Data({1.0f, 2.0f});
  struct Case {
    std::string dict;
    const char* message;
  } cases[] = {
      {"", "expected `{`"},
      {"['descr']", "expected `{`"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "expected `,` or `}`"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", "a quoted key or `}`"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", "expected `,` or `}`"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", "the end of the header"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}}", "the end of the header"},
      {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}", "expected `,` or `}`"},
      {"{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}", "expected `:`"},
      {"{'descr': '<f4',, 'fortran_order': False, 'shape': (2,)}", "a quoted key"},
      {"{descr: '<f4', 'fortran_order': False, 'shape': (2,)}", "a quoted key"},
      {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,)}", "escapes"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", "unexpected key 'x'"},
      {"{'descr': '<f4', 'fortran_order': False}", "no 'shape' key"},
      {"{'fortran_order': False, 'shape': (2,)}", "no 'descr' key"},
      {"{'descr': '<f4', 'shape': (2,)}", "no 'fortran_order' key"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
       "'descr' appears twice"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "`True` or `False`"},
      {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}", "`True` or `False`"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "a 1-tuple is written `(3,)`"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "a tuple such as"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,,)}", "a dimension"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}", "a dimension"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}", "a dimension"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 2)}", "`,` or `)`"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,", "a dimension"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", "negative dimension -2"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
       "does not fit in 64 bits"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4294967296, 4294967296)}",
       "too many elements"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2305843009213693952,)}",
       "too many elements"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}",
       "structured dtypes are not supported"},
      {"{'descr': '|O', 'fortran_order': False, 'shape': (2,)}", "dtype `|O` is not supported"},
      {"{'descr': '<f2', 'fortran_order': False, 'shape': (2,)}", "np.float32"},
      {"{'descr': '|u1', 'fortran_order': False, 'shape': (2,)}", "np.uint32"},
      {"{'descr': '<U3', 'fortran_order': False, 'shape': (2,)}", "is not supported"},
      {"{'descr': '', 'fortran_order': False, 'shape': (2,)}", "dtype `` is not supported"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", "the end of the header"},
  };
  cases[std::size(cases) - 1].dict.push_back('\0');  // a NUL after the dict
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dict);
    EXPECT_THAT(ErrorOf(MakeNpy(c.dict, two)), HasSubstr(c.message));
  }
  // The message quotes the header, escaped and shortened.
  const std::string long_dict = absl::StrCat("{'descr': '<f4', 'shape': (", std::string(500, '1'));
  const std::string message = ErrorOf(MakeNpy(long_dict, two));
  EXPECT_THAT(message, HasSubstr("does not fit in 64 bits"));
  EXPECT_LT(message.size(), 300u);
}

TEST(Npy, RejectsBadFiles) {
  const std::string good =
      MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", F32Data({1.0f, 2.0f}));
  EXPECT_THAT(ErrorOf(""), HasSubstr("it is empty"));
  EXPECT_THAT(ErrorOf("PK\3\4 a zip file"), HasSubstr("does not start with the magic"));
  EXPECT_THAT(ErrorOf("\x93NUMPX\1\0"), HasSubstr("does not start with the magic"));
  EXPECT_THAT(ErrorOf("\x93NUM"), HasSubstr("inside the preamble"));
  EXPECT_THAT(ErrorOf(std::string("\x93NUMPY\1\0\5", 9)), HasSubstr("inside the header length"));
  std::string version = good;
  version[6] = 4;
  EXPECT_THAT(ErrorOf(version), HasSubstr("format version 4.0 is not supported"));
  version[6] = 1;
  version[7] = 1;
  EXPECT_THAT(ErrorOf(version), HasSubstr("format version 1.1 is not supported"));
  std::string length = good;
  length[8] = '\xff';
  length[9] = '\xff';
  EXPECT_THAT(ErrorOf(length), HasSubstr("the header length 65535 runs past the end of the file"));
  EXPECT_THAT(ErrorOf(good.substr(0, good.size() - 1)),
              HasSubstr("shape (2,) of <f4 needs 8 bytes of data but 7 follow the header"));
  EXPECT_THAT(ErrorOf(good + "x"), HasSubstr("needs 8 bytes of data but 9 follow"));
  EXPECT_THAT(ErrorOf(MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                              std::string("\1\0\2", 3))),
              HasSubstr("bool element 2 is the byte 2"));
  // A 4-byte length (version 2.0) far past the end.
  EXPECT_THAT(ErrorOf(std::string("\x93NUMPY\2\0\xff\xff\xff\xff{}", 14)),
              HasSubstr("the header length 4294967295 runs past"));
}

TEST(Npy, ReportsFilesThatCannotBeRead) {
  absl::StatusOr<NpyArray> missing = ReadNpy(FileAccess{}, "/nonexistent/dir/x.npy");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("/nonexistent/dir/x.npy: cannot open"));
  absl::StatusOr<NpyArray> directory = ReadNpy(FileAccess{}, ::testing::TempDir());
  ASSERT_FALSE(directory.ok());
  EXPECT_THAT(directory.status().message(), HasSubstr("cannot read"));
  const float one = 1.0f;
  absl::Status write = WriteNpy(FileAccess{}, "/nonexistent/dir/y.npy", DType::kF32, {}, &one);
  EXPECT_EQ(write.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(write.message(), HasSubstr("/nonexistent/dir/y.npy: cannot create"));
  const int64_t negative[] = {2, -1};
  EXPECT_THAT(WriteNpy(FileAccess{}, TempPath("never.npy"), DType::kF32, negative, &one).message(),
              HasSubstr("never.npy: cannot save: shape (2, -1) has a negative dimension"));
}

TEST(Npy, CountsElementsWithoutOverflow) {
  EXPECT_EQ(*NpyElementCount(DType::kF32, {}), 1);
  EXPECT_EQ(*NpyElementCount(DType::kF32, {2, 3, 4}), 24);
  EXPECT_EQ(*NpyElementCount(DType::kF32, {5, 0, 7}), 0);
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(*NpyElementCount(DType::kBool, {max}), max);
  EXPECT_FALSE(NpyElementCount(DType::kF32, {max}).ok());  // its bytes overflow
  EXPECT_EQ(*NpyElementCount(DType::kF32, {max / 4}), max / 4);
  EXPECT_FALSE(NpyElementCount(DType::kBool, {1 << 30, 1 << 30, 1 << 30}).ok());
  EXPECT_FALSE(NpyElementCount(DType::kBool, {0, 1 << 30, 1 << 30, 1 << 30}).ok());
  EXPECT_FALSE(NpyElementCount(DType::kBool, {3, -1}).ok());
}

TEST(Npy, WritesVersion2OnlyForHugeHeaders) {
  // np.save switches when hlen + padding exceeds 65535: 21845 dimensions
  // "1, " fill about 65.5 KB of header.
  for (int ndim : {21000, 22000}) {
    const std::vector<int64_t> shape(ndim, 1);
    const uint8_t value = 1;
    const std::string bytes = SerializeNpy(DType::kBool, shape, &value);
    const size_t header_end = bytes.size() - 1;
    EXPECT_EQ(header_end % 64, 0u);
    EXPECT_EQ(bytes[6], ndim == 21000 ? 1 : 2);
    absl::StatusOr<NpyArray> array = ParseNpy(bytes);
    ASSERT_TRUE(array.ok()) << array.status();
    EXPECT_EQ(array->shape, shape);
  }
}

// Every prefix of a valid file is an error; random mutations never crash or
// read out of bounds (run under ASan), and what they parse is consistent.
TEST(Npy, SurvivesTruncationsAndMutations) {
  std::vector<std::string> files;
  for (const Reference& ref : References()) files.push_back(ReadBytes(DataPath(ref.file)));
  for (const char* file : {"f32_2x3_v2.npy", "f32_2x3_v3.npy", "f32_fortran_2x3.npy"}) {
    files.push_back(ReadBytes(DataPath(file)));
  }
  for (const std::string& file : files) {
    ASSERT_FALSE(file.empty());
    for (size_t n = 0; n < file.size(); ++n) {
      EXPECT_FALSE(ParseNpy(file.substr(0, n)).ok()) << "prefix of " << n << " bytes";
    }
  }
  std::mt19937 rng(20261122);
  const std::string interesting = "{}()[],:'\" \n\t0123456789-LTF<>=|fiub\x93\xff";
  int parsed = 0;
  for (int iteration = 0; iteration < 30000; ++iteration) {
    std::string bytes = files[rng() % files.size()];
    const int mutations = 1 + rng() % 3;
    for (int m = 0; m < mutations && !bytes.empty(); ++m) {
      // Mostly in the preamble and header (the first 128 bytes), where the
      // parser's decisions are.
      const size_t limit = rng() % 4 == 0 ? bytes.size() : std::min<size_t>(bytes.size(), 128);
      const size_t at = rng() % limit;
      switch (rng() % 4) {
        case 0:
          bytes[at] = static_cast<char>(rng());
          break;
        case 1:
          bytes[at] = interesting[rng() % interesting.size()];
          break;
        case 2:
          bytes.insert(at, 1, interesting[rng() % interesting.size()]);
          break;
        default:
          bytes.erase(at, 1);
          break;
      }
    }
    absl::StatusOr<NpyArray> array = ParseNpy(bytes);
    if (!array.ok()) {
      EXPECT_FALSE(array.status().message().empty());
      continue;
    }
    ++parsed;
    absl::StatusOr<int64_t> count = NpyElementCount(array->dtype, array->shape);
    ASSERT_TRUE(count.ok());
    ASSERT_EQ(array->data.size(), *count * NpyElementSize(array->dtype));
    if (array->dtype == DType::kBool) {
      for (uint8_t b : array->data) ASSERT_LE(b, 1);
    }
  }
  // Mutations of the data and of header spaces leave valid files: the loop
  // also exercised the success path.
  EXPECT_GT(parsed, 100);
}

// Alea writes, NumPy reads, checks and saves again, Alea reads that back:
// both directions agree on values and NumPy's file is byte-identical.
TEST(Npy, RoundTripsThroughNumPy) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "NumPy is not available to /usr/bin/python3 (apt install python3-numpy)";
  }
  struct Case {
    const char* name;
    DType dtype;
    std::vector<int64_t> shape;
    std::vector<uint8_t> data;
    const char* expected;  // a NumPy expression for the same array
  };
  std::vector<float> f32(24);
  for (int i = 0; i < 24; ++i) f32[i] = i * 0.5f - 3.0f;
  std::vector<int32_t> i32(12);
  for (int i = 0; i < 12; ++i) i32[i] = (i - 5) * 100000007;
  std::vector<uint32_t> u32(6);
  for (uint32_t i = 0; i < 6; ++i) u32[i] = i * 0x30000001u;
  const std::vector<Case> cases = {
      {"f32",
       DType::kF32,
       {2, 3, 4},
       Bytes(f32),
       "(np.arange(24, dtype=np.float32) * np.float32(0.5) - np.float32(3)).reshape(2, 3, 4)"},
      {"f32_scalar", DType::kF32, {}, Bytes<float>({-0.1f}), "np.array(-0.1, dtype=np.float32)"},
      {"f32_empty", DType::kF32, {3, 0}, {}, "np.zeros((3, 0), dtype=np.float32)"},
      {"i32",
       DType::kI32,
       {3, 4},
       Bytes(i32),
       "((np.arange(12, dtype=np.int64) - 5) * 100000007).astype(np.int32).reshape(3, 4)"},
      {"u32",
       DType::kU32,
       {6},
       Bytes(u32),
       "(np.arange(6, dtype=np.uint64) * 0x30000001 % 2**32).astype(np.uint32)"},
      {"bool", DType::kBool, {1, 5}, {1, 0, 1, 0, 1}, "(np.arange(5) % 2 == 0).reshape(1, 5)"},
  };
  std::string script =
      "import sys\nimport numpy as np\nd = sys.argv[1]\nfailures = 0\n"
      "def check(name, expected):\n"
      "    global failures\n"
      "    a = np.load(d + name + '.npy')\n"
      "    if a.dtype != expected.dtype or a.shape != expected.shape or "
      "not np.array_equal(a, expected):\n"
      "        print(name, 'differs:', a.dtype, a.shape, a, expected)\n"
      "        failures += 1\n"
      "    np.save(d + name + '.numpy.npy', a)\n";
  const std::string dir = TempPath("numpy_");
  for (const Case& c : cases) {
    ASSERT_TRUE(
        WriteNpy(FileAccess{}, dir + c.name + ".npy", c.dtype, c.shape, c.data.data()).ok());
    absl::StrAppend(&script, "check('", c.name, "', ", c.expected, ")\n");
  }
  absl::StrAppend(&script, "sys.exit(1 if failures else 0)\n");
  const std::string script_path = dir + "check.py";
  std::ofstream(script_path) << script;
  const std::string command = absl::StrCat("/usr/bin/python3 ", script_path, " ", dir);
  ASSERT_EQ(std::system(command.c_str()), 0) << script;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir + c.name + ".numpy.npy";
    absl::StatusOr<NpyArray> array = ReadNpy(FileAccess{}, path);
    ASSERT_TRUE(array.ok()) << array.status();
    EXPECT_EQ(array->dtype, c.dtype);
    EXPECT_EQ(array->shape, c.shape);
    EXPECT_EQ(array->data, c.data);
    EXPECT_EQ(ReadBytes(path), ReadBytes(dir + c.name + ".npy"));
    std::remove(path.c_str());
    std::remove((dir + c.name + ".npy").c_str());
  }
  std::remove(script_path.c_str());
}

}  // namespace
}  // namespace alea::vm
