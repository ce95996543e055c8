// alea._alea: Alea from Python, over the C API (include/alea/alea.h) through
// pybind11. Values: None, bool, int, float, str, NumPy arrays (f32, i32, u32,
// bool; viewed in place when contiguous and aligned), RandState, tuples,
// lists, alea.Record and alea.Variant, both ways. Calls release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "alea/alea.h"

namespace py = pybind11;

namespace {

// An alea_value owned by Python: released with the last reference.
class Owned {
 public:
  Owned() : v_(alea_unit()) {}
  explicit Owned(alea_value v) : v_(v) {}
  Owned(const Owned& o) : v_(alea_retain(o.v_)) {}
  Owned& operator=(const Owned& o) {
    if (this != &o) {
      alea_release(v_);
      v_ = alea_retain(o.v_);
    }
    return *this;
  }
  ~Owned() { alea_release(v_); }
  const alea_value& get() const { return v_; }

 private:
  alea_value v_;
};

// alea.Error(code, message, file, line, column), defined in alea/__init__.py.
[[noreturn]] void Raise(alea_code code, alea_error* e) {
  std::string message = e != nullptr ? alea_error_message(e) : alea_code_name(code);
  std::string file = e != nullptr ? alea_error_file(e) : "";
  int line = e != nullptr ? alea_error_line(e) : 0;
  int column = e != nullptr ? alea_error_column(e) : 0;
  alea_error_free(e);
  std::string name = alea_code_name(code);
  if (name.rfind("ALEA_", 0) == 0) name = name.substr(5);
  py::object error = py::module_::import("alea").attr("Error");
  PyErr_SetObject(error.ptr(), error(name, message, file, line, column).ptr());
  throw py::error_already_set();
}

// Takes the error's address: the code is computed before it is read.
void Check(alea_code code, alea_error** e) {
  if (code != ALEA_OK) Raise(code, *e);
}

class RandState {
 public:
  explicit RandState(alea_value v) : v_(v) {}
  static RandState FromSeed(int64_t seed) { return RandState(alea_state_from_seed(seed)); }
  static RandState FromKey(py::object key) {
    py::array_t<uint32_t, py::array::c_style | py::array::forcecast> k(key);
    if (k.size() != 2) {
      throw py::value_error("a JAX key's data is 2 uint32 words, not " + std::to_string(k.size()));
    }
    return RandState(alea_state_from_key(k.data()[0], k.data()[1]));
  }
  py::array_t<uint32_t> KeyData() const {
    py::array_t<uint32_t> out(2);
    alea_state_key(v_.get(), out.mutable_data());
    return out;
  }
  uint32_t counter() const { return alea_state_counter(v_.get()); }
  bool consumed() const { return alea_state_consumed(v_.get()) != 0; }
  py::tuple Split() const {
    alea_value a, b;
    alea_error* e = nullptr;
    Check(alea_state_split(v_.get(), &a, &b, &e), &e);
    return py::make_tuple(RandState(a), RandState(b));
  }
  py::list SplitN(size_t n) const {
    std::vector<alea_value> states(n);
    alea_error* e = nullptr;
    Check(alea_state_split_n(v_.get(), n, states.data(), &e), &e);
    py::list out;
    for (alea_value s : states) out.append(RandState(s));
    return out;
  }
  py::tuple Next() const {
    alea_value a, b;
    alea_error* e = nullptr;
    Check(alea_state_next(v_.get(), &a, &b, &e), &e);
    return py::make_tuple(RandState(a), RandState(b));
  }
  RandState FoldIn(int64_t data) const {
    if (data < 0 || data > 0xffffffffLL) {
      throw py::value_error("fold_in takes data in [0, 2^32), as JAX's uint32");
    }
    alea_value out;
    alea_error* e = nullptr;
    Check(alea_state_fold_in(v_.get(), static_cast<uint32_t>(data), &out, &e), &e);
    return RandState(out);
  }
  std::string Repr() const {
    uint32_t key[2];
    alea_state_key(v_.get(), key);
    return "RandState(key_data=[" + std::to_string(key[0]) + ", " + std::to_string(key[1]) +
           "], counter=" + std::to_string(counter()) + (consumed() ? ", consumed" : "") + ")";
  }
  const alea_value& get() const { return v_.get(); }

 private:
  Owned v_;
};

// The classes of alea/__init__.py, looked up once.
struct PyTypes {
  py::object record, variant, np_bool, np_integer, np_floating;
  static PyTypes& Get() {
    // Leaked on purpose: Python objects must not be destroyed after the
    // interpreter is finalized.
    static PyTypes* types = [] {
      auto* t = new PyTypes;
      py::module_ alea = py::module_::import("alea");
      t->record = alea.attr("Record");
      t->variant = alea.attr("Variant");
      py::module_ np = py::module_::import("numpy");
      t->np_bool = np.attr("bool_");
      t->np_integer = np.attr("integer");
      t->np_floating = np.attr("floating");
      return t;
    }();
    return *types;
  }
};

void ReleasePyObject(void* object) {
  py::gil_scoped_acquire gil;
  Py_DECREF(static_cast<PyObject*>(object));
}

alea_value ToAlea(py::handle x, alea_kind expected = ALEA_UNIT);

alea_value TensorOf(py::handle x) {
  py::array a = py::reinterpret_borrow<py::array>(x);
  alea_dtype dtype;
  const char kind = a.dtype().kind();
  const ssize_t item = a.dtype().itemsize();
  if (kind == 'f' && item == 4) {
    dtype = ALEA_F32;
  } else if (kind == 'i' && item == 4) {
    dtype = ALEA_I32;
  } else if (kind == 'u' && item == 4) {
    dtype = ALEA_U32;
  } else if (kind == 'b') {
    dtype = ALEA_BOOL8;
  } else {
    throw py::type_error("a NumPy array of dtype " + std::string(py::str(a.dtype())) +
                         " cannot be an Alea tensor (f32, i32, u32 or bool): use .astype(numpy." +
                         (kind == 'f'   ? "float32"
                          : kind == 'i' ? "int32"
                                        : "uint32") +
                         ")");
  }
  // In place when the layout is Alea's (row-major, aligned); else one copy.
  if (!(a.flags() & py::array::c_style) || (reinterpret_cast<uintptr_t>(a.data()) % item) != 0) {
    a = py::array::ensure(a, py::array::c_style | py::array::forcecast);
    a = a.attr("copy")();
  }
  std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
  PyObject* keep = a.ptr();
  Py_INCREF(keep);
  alea_value v;
  alea_error* e = nullptr;
  const alea_code c =
      alea_tensor_view(dtype, shape.data(), static_cast<int>(shape.size()), a.data(),
                       static_cast<size_t>(a.nbytes()), ReleasePyObject, keep, &v, &e);
  if (c != ALEA_OK) {
    Py_DECREF(keep);
    Raise(c, e);
  }
  return v;
}

// Values made of parts: the parts converted, then the whole, then the parts
// released (the whole retains them).
template <typename Make>
alea_value Compound(const std::vector<py::handle>& parts, Make make) {
  std::vector<alea_value> values;
  try {
    for (py::handle p : parts) values.push_back(ToAlea(p));
  } catch (...) {
    for (alea_value v : values) alea_release(v);
    throw;
  }
  alea_value out;
  alea_error* e = nullptr;
  const alea_code c = make(values, &out, &e);
  for (alea_value v : values) alea_release(v);
  Check(c, &e);
  return out;
}

alea_value ToAlea(py::handle x, alea_kind expected) {
  // The common scalars first, by exact type: a hot call passes these.
  if (PyLong_CheckExact(x.ptr())) {
    // An integer where a Float is taken is that Float, as in Python.
    if (expected == ALEA_FLOAT) return alea_float(x.cast<double>());
    return alea_int(x.cast<int64_t>());
  }
  if (PyFloat_CheckExact(x.ptr())) return alea_float(PyFloat_AS_DOUBLE(x.ptr()));
  if (x.is_none()) return alea_unit();
  PyTypes& types = PyTypes::Get();
  if (py::isinstance<py::bool_>(x) || py::isinstance(x, types.np_bool)) {
    return alea_bool(x.cast<bool>());
  }
  if (py::isinstance<RandState>(x)) return alea_retain(x.cast<const RandState&>().get());
  if (py::isinstance<py::int_>(x) || py::isinstance(x, types.np_integer)) {
    if (expected == ALEA_FLOAT) return alea_float(x.cast<double>());
    return alea_int(x.cast<int64_t>());
  }
  if (py::isinstance<py::float_>(x) || py::isinstance(x, types.np_floating)) {
    return alea_float(x.cast<double>());
  }
  if (py::isinstance<py::str>(x)) {
    const std::string s = x.cast<std::string>();
    return alea_str(s.data(), s.size());
  }
  if (py::isinstance<py::array>(x)) return TensorOf(x);
  if (py::isinstance<py::tuple>(x) || py::isinstance<py::list>(x)) {
    std::vector<py::handle> parts;
    for (py::handle p : x) parts.push_back(p);
    const bool tuple = py::isinstance<py::tuple>(x);
    return Compound(parts, [&](std::vector<alea_value>& v, alea_value* out, alea_error** e) {
      return tuple ? alea_tuple(v.data(), v.size(), out, e)
                   : alea_array(v.data(), v.size(), out, e);
    });
  }
  if (py::isinstance(x, types.record)) {
    const std::string type = py::str(x.attr("type"));
    py::dict fields = x.attr("fields");
    std::vector<std::string> names;
    std::vector<py::handle> parts;
    for (auto [k, v] : fields) {
      names.push_back(py::str(k));
      parts.push_back(v);
    }
    std::vector<const char*> name_ptrs;
    for (const std::string& n : names) name_ptrs.push_back(n.c_str());
    return Compound(parts, [&](std::vector<alea_value>& v, alea_value* out, alea_error** e) {
      return alea_record(type.c_str(), name_ptrs.data(), v.data(), v.size(), out, e);
    });
  }
  if (py::isinstance(x, types.variant)) {
    const std::string type = py::str(x.attr("type"));
    const std::string ctor = py::str(x.attr("constructor"));
    std::vector<py::handle> parts;
    for (py::handle p : py::tuple(x.attr("fields"))) parts.push_back(p);
    return Compound(parts, [&](std::vector<alea_value>& v, alea_value* out, alea_error** e) {
      return alea_variant(type.c_str(), ctor.c_str(), v.data(), v.size(), out, e);
    });
  }
  throw py::type_error("a Python " + std::string(py::str(x.get_type().attr("__name__"))) +
                       " cannot be passed to Alea (None, bool, int, float, str, a NumPy array, "
                       "RandState, tuple, list, alea.Record or alea.Variant can)");
}

// Takes `v` (owned) and makes the Python value.
py::object FromAlea(alea_value v) {
  switch (v.kind) {
    case ALEA_UNIT:
      return py::none();
    case ALEA_INT:
      return py::int_(v.as.i);
    case ALEA_FLOAT:
      return py::float_(v.as.f);
    case ALEA_BOOL:
      return py::bool_(v.as.b != 0);
    case ALEA_STR: {
      size_t length = 0;
      const char* text = alea_str_data(v, &length);
      py::str s(text, length);
      alea_release(v);
      return std::move(s);
    }
    case ALEA_TENSOR: {
      // The NumPy array reads the tensor's own storage: no copy. The capsule
      // releases the tensor with the array.
      const alea_dtype dtype = alea_tensor_dtype(v);
      py::dtype dt = dtype == ALEA_F32   ? py::dtype::of<float>()
                     : dtype == ALEA_I32 ? py::dtype::of<int32_t>()
                     : dtype == ALEA_U32 ? py::dtype::of<uint32_t>()
                                         : py::dtype::of<bool>();
      std::vector<ssize_t> shape(alea_tensor_shape(v), alea_tensor_shape(v) + alea_tensor_ndim(v));
      auto* holder = new alea_value(v);
      py::capsule base(holder, [](void* p) {
        alea_value* held = static_cast<alea_value*>(p);
        alea_release(*held);
        delete held;
      });
      void* data = const_cast<void*>(alea_tensor_data(v, nullptr));
      return py::array(dt, shape, data, base);
    }
    case ALEA_RANDSTATE:
      return py::cast(RandState(v));
    case ALEA_TUPLE:
    case ALEA_ARRAY: {
      const size_t n = alea_length(v);
      py::list items;
      for (size_t i = 0; i < n; ++i) items.append(FromAlea(alea_retain(alea_element(v, i))));
      const alea_kind kind = v.kind;
      alea_release(v);
      if (kind == ALEA_TUPLE) return py::tuple(items);
      return std::move(items);
    }
    case ALEA_RECORD: {
      py::dict fields;
      for (size_t i = 0; i < alea_length(v); ++i) {
        fields[py::str(alea_field_name(v, i))] = FromAlea(alea_retain(alea_element(v, i)));
      }
      py::object r = PyTypes::Get().record(py::str(alea_type_name(v)), **fields);
      alea_release(v);
      return r;
    }
    case ALEA_VARIANT: {
      py::list fields;
      for (size_t i = 0; i < alea_length(v); ++i) {
        fields.append(FromAlea(alea_retain(alea_element(v, i))));
      }
      py::object r = PyTypes::Get().variant(py::str(alea_type_name(v)),
                                            py::str(alea_constructor(v)), *py::tuple(fields));
      alea_release(v);
      return r;
    }
    case ALEA_KIND_INT_RANGE_:
      break;
  }
  alea_release(v);
  return py::none();
}

class Module {
 public:
  explicit Module(alea_module* m) : m_(m) {}
  Module(const Module& o) : m_(alea_module_retain(o.m_)) {}
  ~Module() { alea_module_release(m_); }

  static Module Compile(const std::string& source, const std::string& file_name,
                        py::object imports) {
    alea_compile_options options;
    alea_compile_options_init(&options);
    struct Reader {
      py::object fn;
      std::string text;
    } reader{imports, {}};
    if (!imports.is_none()) {
      options.import_user = &reader;
      options.import = [](void* user, const char* path, alea_import* out) -> int {
        auto* r = static_cast<Reader*>(user);
        py::object text = r->fn(path);
        if (text.is_none()) return 2;  // ENOENT: "No such file or directory"
        r->text = text.cast<std::string>();
        out->text = r->text.data();
        out->length = r->text.size();
        return 0;
      };
    }
    alea_module* m = nullptr;
    alea_error* e = nullptr;
    Check(alea_compile(source.data(), source.size(), file_name.c_str(), &options, &m, &e), &e);
    return Module(m);
  }
  static Module FromFile(const std::string& path) {
    alea_module* m = nullptr;
    alea_error* e = nullptr;
    Check(alea_module_from_file(path.c_str(), nullptr, &m, &e), &e);
    return Module(m);
  }
  bool HasMain() const { return alea_module_has_main(m_) != 0; }
  static Module FromBytes(const py::bytes& bytes) {
    const std::string b = bytes;
    alea_module* m = nullptr;
    alea_error* e = nullptr;
    Check(alea_module_from_bytes(b.data(), b.size(), &m, &e), &e);
    return Module(m);
  }
  py::bytes ToBytes() const {
    size_t length = 0;
    void* bytes = alea_module_to_bytes(m_, &length);
    if (bytes == nullptr) throw std::bad_alloc();
    py::bytes out(static_cast<const char*>(bytes), length);
    alea_free(bytes);
    return out;
  }
  std::vector<std::string> FunctionNames() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < alea_module_function_count(m_); ++i) {
      names.emplace_back(alea_module_function_name(m_, i));
    }
    return names;
  }
  alea_module* get() const { return m_; }

 private:
  alea_module* m_;
};

class Vm {
 public:
  Vm(uint64_t max_heap_bytes, uint64_t max_call_depth, uint64_t max_instructions, int threads,
     bool jit, const std::string& files, const std::string& root, py::object output)
      : output_(std::move(output)), root_(root) {
    alea_config config;
    alea_config_init(&config);
    config.max_heap_bytes = max_heap_bytes;
    config.max_call_depth = max_call_depth;
    config.max_instructions = max_instructions;
    config.threads = threads;
    config.jit = jit ? 1 : 0;
    if (files == "none") {
      config.files = ALEA_FILES_NONE;
    } else if (files == "read_only") {
      config.files = ALEA_FILES_READ_ONLY;
    } else if (files == "read_write") {
      config.files = ALEA_FILES_READ_WRITE;
    } else if (files == "full") {
      config.files = ALEA_FILES_FULL;
    } else {
      throw py::value_error("files is \"none\", \"read_only\", \"read_write\" or \"full\", not \"" +
                            files + "\"");
    }
    if ((files == "read_only" || files == "read_write") && root.empty()) {
      throw py::value_error("files=\"" + files + "\" needs root=DIRECTORY");
    }
    config.files_root = root_.c_str();
    config.output = [](void* user, const char* text, size_t length) {
      py::gil_scoped_acquire gil;
      auto* self = static_cast<Vm*>(user);
      try {
        py::str chunk(text, length);
        if (self->output_.is_none()) {
          py::module_::import("sys").attr("stdout").attr("write")(chunk);
        } else {
          self->output_(chunk);
        }
      } catch (py::error_already_set& e) {
        e.discard_as_unraisable("alea: the output function");
      }
    };
    config.output_user = this;
    vm_ = alea_vm_new(&config);
    if (vm_ == nullptr) throw std::bad_alloc();
  }
  ~Vm() { alea_vm_free(vm_); }

  void Load(const Module& module) {
    std::unique_lock<std::mutex> lock = Busy();
    alea_error* e = nullptr;
    alea_code c;
    {
      py::gil_scoped_release nogil;
      c = alea_vm_load(vm_, module.get(), &e);
    }
    Check(c, &e);
  }

  // `main` of the loaded module, as `alea run FILE ARGS...` runs it.
  void RunMain(const std::vector<std::string>& args, int64_t seed) {
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::unique_lock<std::mutex> lock = Busy();
    alea_error* e = nullptr;
    alea_code c;
    {
      py::gil_scoped_release nogil;
      c = alea_vm_run_main(vm_, argv.data(), argv.size(), seed, &e);
    }
    Check(c, &e);
  }

  alea_function* Find(const std::string& name) {
    alea_function* f = nullptr;
    alea_error* e = nullptr;
    Check(alea_vm_find(vm_, name.c_str(), &f, &e), &e);
    return f;
  }

  py::object Call(alea_function* f, py::args args) {
    std::vector<alea_value> values;
    values.reserve(args.size());
    struct Release {
      std::vector<alea_value>& values;
      ~Release() {
        for (alea_value v : values) alea_release(v);
      }
    } release{values};
    for (size_t i = 0; i < args.size(); ++i) {
      values.push_back(ToAlea(args[i], alea_function_param_kind(f, i)));
    }
    std::unique_lock<std::mutex> lock = Busy();
    alea_value result;
    alea_error* e = nullptr;
    alea_code c;
    {
      py::gil_scoped_release nogil;
      c = alea_call(vm_, f, values.data(), values.size(), &result, &e);
    }
    Check(c, &e);
    return FromAlea(result);
  }

  // `extern fn NAME`: a Python function of the declared arguments, whose
  // result is converted as an argument is; an exception fails the Alea call
  // ("host function `NAME` failed: ValueError: ..."). Called with the GIL
  // taken back from the call that released it.
  void RegisterFunction(const std::string& name, py::object fn, py::object signature) {
    auto host = std::make_unique<Host>();
    host->fn = std::move(fn);
    host->name = name;
    const std::string sig = signature.is_none() ? "" : signature.cast<std::string>();
    alea_host_function f;
    alea_host_function_init(&f);
    f.name = host->name.c_str();
    f.signature = sig.empty() ? nullptr : sig.c_str();
    f.user = host.get();
    f.fn = [](alea_host_call* call, const alea_value* args, size_t count,
              alea_value* result) -> alea_code {
      auto* h = static_cast<Host*>(alea_host_user(call));
      py::gil_scoped_acquire gil;
      try {
        py::tuple py_args(count);
        for (size_t i = 0; i < count; ++i) py_args[i] = FromAlea(alea_retain(args[i]));
        py::object r = h->fn(*py_args);
        *result = ToAlea(r);
        return ALEA_OK;
      } catch (py::error_already_set& e) {
        return alea_host_fail(call, (std::string(e.type().attr("__name__").cast<std::string>()) +
                                     ": " + py::str(e.value()).cast<std::string>())
                                        .c_str());
      } catch (std::exception& e) {
        return alea_host_fail(call, e.what());
      }
    };
    alea_error* e = nullptr;
    Check(alea_vm_register_function(vm_, &f, &e), &e);
    hosts_.push_back(std::move(host));
  }

  // `extern let NAME`: a value, converted now and checked at the next load.
  void RegisterValue(const std::string& name, py::handle value) {
    Owned v(ToAlea(value));
    alea_error* e = nullptr;
    Check(alea_vm_register_value(vm_, name.c_str(), v.get(), &e), &e);
  }

  void Interrupt() { alea_vm_interrupt(vm_); }

  py::dict Stats() const {
    alea_stats s;
    alea_vm_stats(vm_, &s);
    py::dict d;
    d["instructions"] = s.instructions;
    d["calls"] = s.calls;
    d["allocations"] = s.allocations;
    d["peak_heap_bytes"] = s.peak_heap_bytes;
    d["heap_bytes_live"] = s.heap_bytes_live;
    d["bytes_copied"] = s.bytes_copied;
    return d;
  }

 private:
  // One call at a time: a second thread is refused rather than let in.
  std::unique_lock<std::mutex> Busy() {
    std::unique_lock<std::mutex> lock(busy_, std::try_to_lock);
    if (!lock.owns_lock()) {
      py::object error = py::module_::import("alea").attr("Error");
      PyErr_SetObject(error.ptr(),
                      error("FAILED_PRECONDITION",
                            "this Vm is running a call in another thread; a Vm runs one call at "
                            "a time (make one Vm per thread)",
                            "", 0, 0)
                          .ptr());
      throw py::error_already_set();
    }
    return lock;
  }

  struct Host {
    std::string name;
    py::object fn;
  };
  alea_vm* vm_ = nullptr;
  std::vector<std::unique_ptr<Host>> hosts_;  // kept while the VM may call them
  py::object output_;
  std::string root_;
  std::mutex busy_;
};

// A function of a Vm's loaded module; keeps its Vm alive.
struct Function {
  py::object vm;  // the Python Vm
  alea_function* f;
  py::object Call(py::args args) { return vm.cast<Vm&>().Call(f, std::move(args)); }
};

}  // namespace

PYBIND11_MODULE(_alea, m) {
  m.doc() = "Alea's C API from Python (see the alea package)";
  m.attr("version") = alea_version_string();

  py::class_<RandState>(m, "RandState")
      .def(py::init(&RandState::FromSeed), py::arg("seed"), "key(seed): JAX's jax.random.key(seed)")
      .def_static("from_key", &RandState::FromKey, py::arg("key_data"),
                  "The state of a JAX key's data (uint32[2], jax.random.key_data(k))")
      .def("key_data", &RandState::KeyData,
           "The key data a JAX program would use for this state (uint32[2])")
      .def_property_readonly("counter", &RandState::counter)
      .def_property_readonly("consumed", &RandState::consumed)
      .def("split", &RandState::Split, "split(s): two states; consumes s")
      .def("split_n", &RandState::SplitN, py::arg("n"), "split_n(s, n): n states; consumes s")
      .def("next", &RandState::Next, "next(s): (the next state, the advanced stream); consumes s")
      .def("fold_in", &RandState::FoldIn, py::arg("data"), "fold_in(s, data); consumes s")
      .def("__repr__", &RandState::Repr);

  py::class_<Module>(m, "Module")
      .def_static("from_bytes", &Module::FromBytes, py::arg("data"),
                  "A module from the bytes of a .aleac file (alea build), without the compiler")
      .def_static("from_file", &Module::FromFile, py::arg("path"),
                  "The program in a file: source, or a .aleac module (told by its first bytes)")
      .def_property_readonly("has_main", &Module::HasMain)
      .def("to_bytes", &Module::ToBytes)
      .def_property_readonly("function_names", &Module::FunctionNames);
  m.def("compile", &Module::Compile, py::arg("source"), py::arg("file_name") = "<source>",
        py::arg("imports") = py::none(),
        "Compiles Alea source; imports(path) -> text or None serves `import`s");

  py::class_<Function>(m, "Function")
      .def("__call__", &Function::Call)
      .def_property_readonly("name", [](const Function& f) { return alea_function_name(f.f); })
      .def_property_readonly("signature",
                             [](const Function& f) { return alea_function_signature(f.f); })
      .def("__repr__", [](const Function& f) {
        return std::string("<alea function ") + alea_function_name(f.f) + ": " +
               alea_function_signature(f.f) + ">";
      });

  py::class_<Vm>(m, "Vm")
      .def(py::init<uint64_t, uint64_t, uint64_t, int, bool, const std::string&, const std::string&,
                    py::object>(),
           py::kw_only(), py::arg("max_heap_bytes") = 0, py::arg("max_call_depth") = 1'000'000,
           py::arg("max_instructions") = 0, py::arg("threads") = 1, py::arg("jit") = true,
           py::arg("files") = "none", py::arg("root") = "", py::arg("output") = py::none())
      .def("load", &Vm::Load, py::arg("module"))
      .def(
          "function",
          [](py::object self, const std::string& name) {
            return Function{self, self.cast<Vm&>().Find(name)};
          },
          py::arg("name"))
      .def(
          "call",
          [](Vm& vm, const std::string& name, py::args args) {
            return vm.Call(vm.Find(name), std::move(args));
          },
          py::arg("name"))
      .def("register_function", &Vm::RegisterFunction, py::arg("name"), py::arg("fn"),
           py::arg("signature") = py::none(),
           "Makes fn what `extern fn NAME` calls in modules loaded afterwards (signature, "
           "if given, e.g. \"(Float) -> Float\", is checked at load)")
      .def("register_value", &Vm::RegisterValue, py::arg("name"), py::arg("value"),
           "Makes value the value of `extern let NAME` in modules loaded afterwards")
      .def("run_main", &Vm::RunMain, py::arg("args") = std::vector<std::string>{},
           py::arg("seed") = 0,
           "Runs main of the loaded module as `alea run FILE ARGS...` does (seed: a `uses rng` "
           "main's key)")
      .def("interrupt", &Vm::Interrupt,
           "Stops the running call (from any thread) with an Error of code CANCELLED")
      .def_property_readonly("stats", &Vm::Stats);
}
