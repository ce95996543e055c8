// A fixture for the tests of tensor_take.cc, tensor_scan.cc and
// tensor_sort.cc: tensors from vectors, their contents back, the message of
// a failure, and that every path releases what it should (bytes_live back
// to 0).
#ifndef ALEA_TESTS_VM_TENSOR_SEARCH_TESTING_H_
#define ALEA_TESTS_VM_TENSOR_SEARCH_TESTING_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vm/heap.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::vm::testing {

class TensorSearchTest : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(heap_.bytes_live(), 0u); }

  template <typename T>
  Object* Make(DType dtype, std::vector<int64_t> shape, std::vector<T> values) {
    Object* t = cx_.New(dtype, shape);
    EXPECT_NE(t, nullptr);
    EXPECT_EQ(SizeOf(t), static_cast<int64_t>(values.size()));
    if (!values.empty()) std::memcpy(DataOf(t), values.data(), values.size() * sizeof(T));
    return t;
  }
  Object* F32(std::vector<int64_t> shape, std::vector<float> v) {
    return Make(DType::kF32, shape, v);
  }
  Object* I32(std::vector<int64_t> shape, std::vector<int32_t> v) {
    return Make(DType::kI32, shape, v);
  }
  template <typename T>
  static std::vector<T> Values(const Object* t) {
    return std::vector<T>(ElementsOf<T>(t), ElementsOf<T>(t) + SizeOf(t));
  }
  static std::vector<int64_t> Shape(const Object* t) {
    return std::vector<int64_t>(ShapeOf(t).begin(), ShapeOf(t).end());
  }
  // The message (and help, after " | ") of the failure just recorded.
  std::string Error(Object* result) {
    EXPECT_EQ(result, nullptr);
    if (result != nullptr) {
      heap_.Release(result);
      return "(no error)";
    }
    EXPECT_FALSE(cx_.out_of_memory());
    RuntimeError e = cx_.TakeError();
    return e.help.empty() ? e.message : e.message + " | " + e.help;
  }
  // Only the message.
  std::string Message(Object* result) {
    const std::string all = Error(result);
    return all.substr(0, all.find(" | "));
  }
  void Release(std::initializer_list<Object*> ts) {
    for (Object* t : ts) heap_.Release(t);
  }

  Heap heap_{0};
  TensorContext cx_{heap_};
};

}  // namespace alea::vm::testing

#endif  // ALEA_TESTS_VM_TENSOR_SEARCH_TESTING_H_
