"""alea from Python: values both ways, errors, states, limits, threads."""

import os
import subprocess
import threading
import time

import numpy as np
import pytest

import alea

SOURCE = """
type Params = { mu: Float, sigma: Float }
type Shape = Circle(Float) | Rect(Float, Float) | Dot

fn add(a: Int, b: Int) -> Int = a + b
fn half(x: Float) -> Float = x / 2.0
fn negate(b: Bool) -> Bool = !b
fn greet(name: Str) -> Str = "hello, " + name
fn say(x: Int) = print(x)
fn scale(x: Tensor, k: Float) -> Tensor = x * k
fn ints(x: Tensor(i32)) -> Tensor(i32) = x + 1
fn positive(x: Tensor) -> Tensor(bool) = x > 0.0
fn draw(s: RandState) -> Tensor = normal(s, [4])
fn fork(s: RandState) -> RandState = fold_in(s, 7)
fn halves(s: RandState) -> (RandState, RandState) = split(s)
fn noisy(x: Tensor) -> Tensor uses rng = x + normal(shape(x)) * 0.0
fn swap(p: (Int, Str)) -> (Str, Int) = { let (a, b) = p; (b, a) }
fn lengths(xs: [Str]) -> [Int] = map(xs, |s| len(s))
fn moved(p: Params) -> Params = Params { mu: p.mu + 1.0, ..p }
fn grow(s: Shape) -> Shape = match s {
  Circle(r) => Circle(r * 2.0),
  Rect(w, h) => Rect(h, w),
  Dot => Dot,
}
fn find(xs: [Int], i: Int) -> Option(Int) = get(xs, i)
fn div(a: Int, b: Int) -> Int = a / b
fn spin(n: Int) -> Int = if n == 0 { 0 } else { spin(n - 1) }
"""


@pytest.fixture(scope="module")
def module():
    return alea.compile(SOURCE, "calls.alea")


@pytest.fixture
def vm(module):
    vm = alea.Vm()
    vm.load(module)
    return vm


def test_scalars_and_strings(vm):
    assert vm.call("add", 40, 2) == 42
    assert vm.call("half", 3.0) == 1.5
    assert vm.call("half", 3) == 1.5  # an int where a Float is taken
    assert vm.call("negate", True) is False
    assert vm.call("greet", "alea") == "hello, alea"
    add = vm.function("add")
    assert add.signature == "(Int, Int) -> Int"
    assert add(1, np.int64(2)) == 3


def test_output_goes_to_python(module, capsys):
    vm = alea.Vm()
    vm.load(module)
    assert vm.call("say", 7) is None
    assert capsys.readouterr().out == "7\n"
    lines = []
    vm = alea.Vm(output=lines.append)
    vm.load(module)
    vm.call("say", 8)
    assert lines == ["8\n"]


def test_arrays_in_and_out(vm):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = vm.call("scale", x, 2.0)
    assert y.dtype == np.float32 and y.shape == (2, 3)
    np.testing.assert_array_equal(y, x * 2)
    assert x[1, 2] == 5.0  # read in place, never written
    # A non-contiguous array is copied once, then read.
    np.testing.assert_array_equal(vm.call("scale", x.T, 1.0), x.T)
    i = np.array([1, -2, 3], dtype=np.int32)
    np.testing.assert_array_equal(vm.call("ints", i), i + 1)
    mask = vm.call("positive", np.array([-1.0, 2.0], dtype=np.float32))
    assert mask.dtype == np.bool_ and mask.tolist() == [False, True]
    # 0-d arrays are tensors too.
    assert vm.call("scale", np.array(3.0, dtype=np.float32), 2.0).shape == ()


def test_a_result_array_owns_alea_memory_without_a_copy(vm):
    y = vm.call("scale", np.ones(1000, np.float32), 3.0)
    assert not y.flags.owndata  # the tensor's own storage, kept alive by the array
    assert y.base is not None
    del vm
    assert float(y.sum()) == 3000.0


def test_dtype_errors_are_clear(vm):
    with pytest.raises(TypeError, match="float64.*float32"):
        vm.call("scale", np.ones(3), 1.0)
    with pytest.raises(alea.Error) as e:
        vm.call("ints", np.ones(3, np.float32))
    assert e.value.code == "INVALID_ARGUMENT"
    assert "argument 1 is Tensor(f32), Tensor(i32) was expected" in e.value.message
    with pytest.raises(TypeError, match="dict"):
        vm.call("add", {}, 1)


def test_states_are_jax_keys_and_used_once(vm):
    s = alea.key(0)
    np.testing.assert_array_equal(s.key_data(), [0, 0])
    four = alea.key(0).fold_in(4)
    np.testing.assert_array_equal(four.key_data(), [2285895361, 433833334])  # JAX's published value
    forked = vm.call("fork", alea.key(42))
    np.testing.assert_array_equal(forked.key_data(), alea.key(42).fold_in(7).key_data())
    a, b = vm.call("halves", alea.key(3))
    c, d = alea.key(3).split()
    np.testing.assert_array_equal(b.key_data(), d.key_data())
    # From a JAX key's data and back.
    k = alea.RandState.from_key(np.array([1, 2], np.uint32))
    np.testing.assert_array_equal(k.key_data(), [1, 2])
    sub, rest = k.next()
    assert rest.counter == 1 and k.consumed
    with pytest.raises(alea.Error, match="a RandState is used twice"):
        k.split()
    x = vm.call("draw", s)
    assert x.shape == (4,)
    with pytest.raises(alea.Error, match="a RandState is used twice") as e:
        vm.call("draw", s)
    assert e.value.code == "ABORTED"
    # The same seed draws the same numbers.
    np.testing.assert_array_equal(vm.call("draw", alea.key(0)), x)


def test_uses_rng_takes_the_stream_last(vm):
    f = vm.function("noisy")
    assert f.signature == "(Tensor(f32), RandState) -> Tensor(f32)"
    np.testing.assert_array_equal(f(np.ones(2, np.float32), alea.key(1)), [1, 1])


def test_tuples_lists_records_variants(vm):
    assert vm.call("swap", (1, "one")) == ("one", 1)
    assert vm.call("lengths", ["a", "bcd"]) == [1, 3]
    assert vm.call("lengths", []) == []
    p = vm.call("moved", alea.Record("Params", sigma=2.0, mu=1.0))
    assert p == alea.Record("Params", mu=2.0, sigma=2.0) and p.mu == 2.0
    assert vm.call("grow", alea.Variant("Shape", "Rect", 2.0, 3.0)) == alea.Variant(
        "Shape", "Rect", 3.0, 2.0)
    assert vm.call("grow", alea.Variant("Shape", "Dot")).constructor == "Dot"
    assert vm.call("find", [5, 6, 7], 2) == alea.Variant("Option(Int)", "Some", 7)
    assert vm.call("find", [5], 3) == alea.Variant("Option(Int)", "None")
    with pytest.raises(alea.Error, match="element 3 of argument 1 is Int, Str was expected"):
        vm.call("lengths", ["a", "b", 3])


def test_errors_carry_the_diagnostic_and_its_place(vm):
    with pytest.raises(alea.Error) as e:
        alea.compile("fn f() -> Int =\n  1 + true\n", "bad.alea")
    assert e.value.code == "INVALID_ARGUMENT"
    assert e.value.file == "bad.alea" and e.value.line == 2 and e.value.column > 0
    assert str(e.value).startswith("bad.alea:2:")
    with pytest.raises(alea.Error) as e:
        vm.call("div", 1, 0)
    assert e.value.code == "ABORTED" and "division by zero" in e.value.message
    assert e.value.file == "calls.alea"
    assert vm.call("add", 1, 1) == 2  # the Vm takes the next call
    with pytest.raises(alea.Error, match="no function `nope`"):
        vm.function("nope")
    with pytest.raises(alea.Error, match="takes 2 arguments, not 1"):
        vm.call("add", 1)


def test_imports_through_a_python_function():
    files = {"lib.alea": "fn triple(x: Int) -> Int = 3 * x\n"}
    m = alea.compile('import "lib.alea"\nfn f(x: Int) -> Int = triple(x)\n', "main.alea",
                     imports=lambda path: files.get(path))
    vm = alea.Vm()
    vm.load(m)
    assert vm.call("f", 2) == 6
    with pytest.raises(alea.Error, match="No such file or directory"):
        alea.compile('import "gone.alea"\nfn f() -> Int = 1\n', "main.alea",
                     imports=lambda path: None)


def test_module_bytes_round_trip(module):
    back = alea.Module.from_bytes(module.to_bytes())
    assert "add" in back.function_names
    vm = alea.Vm()
    vm.load(back)
    assert vm.call("add", 2, 3) == 5
    with pytest.raises(alea.Error, match="malformed module"):
        alea.Module.from_bytes(b"not a module")


def test_limits(module):
    vm = alea.Vm(max_instructions=10_000)
    vm.load(module)
    with pytest.raises(alea.Error) as e:
        vm.call("spin", 1_000_000)
    assert e.value.code == "RESOURCE_EXHAUSTED"
    assert vm.stats["instructions"] > 10_000
    with pytest.raises(ValueError, match="root"):
        alea.Vm(files="read_only")
    with pytest.raises(ValueError, match='files is "none", "read_only", "read_write" or "full"'):
        alea.Vm(files="everything")
    with pytest.raises(ValueError, match="2 uint32 words, not 3"):
        alea.RandState.from_key([1, 2, 3])
    with pytest.raises(ValueError, match=r"\[0, 2\^32\)"):
        alea.key(0).fold_in(-1)


def test_interrupt_from_another_thread_with_the_gil_released(module):
    vm = alea.Vm()
    vm.load(module)
    seen = []

    def watchdog():
        time.sleep(0.2)
        seen.append("interrupting")  # runs while the call holds no GIL
        vm.interrupt()

    t = threading.Thread(target=watchdog)
    t.start()
    with pytest.raises(alea.Error) as e:
        vm.call("spin", 10**12)
    t.join()
    assert e.value.code == "CANCELLED" and seen == ["interrupting"]


def test_one_call_at_a_time_per_vm(module):
    vm = alea.Vm()
    vm.load(module)
    errors = []

    def second():
        time.sleep(0.1)
        try:
            vm.call("add", 1, 2)
        except alea.Error as e:
            errors.append(e.code)
        vm.interrupt()

    t = threading.Thread(target=second)
    t.start()
    with pytest.raises(alea.Error):
        vm.call("spin", 10**12)
    t.join()
    assert errors == ["FAILED_PRECONDITION"]


def test_vms_on_threads_agree(module):
    results = [None] * 4

    def run(i):
        vm = alea.Vm()
        vm.load(module)
        results[i] = vm.call("draw", alea.key(9))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_host_functions_and_values():
    m = alea.compile("""extern fn lookup(key: Str) -> Float
extern let scale: Float
extern fn noisy(s: RandState, n: Int) -> Tensor
fn priced(item: Str) -> Float = lookup(item) * scale
fn draw(s: RandState) -> Tensor = noisy(s, 3)
""", "host.alea")
    vm = alea.Vm()
    with pytest.raises(alea.Error, match="extern fn lookup") as e:
        vm.load(m)
    assert e.value.code == "NOT_FOUND"
    prices = {"apple": 1.5}
    vm.register_function("lookup", lambda key: prices[key], "(Str) -> Float")
    # A state reaches Python as a RandState, a NumPy array comes back.
    vm.register_function("noisy", lambda s, n: np.full(n, s.key_data()[0] % 7, np.float32))
    vm.register_value("scale", 2.0)
    vm.load(m)
    assert vm.call("priced", "apple") == 3.0
    with pytest.raises(alea.Error) as e:
        vm.call("priced", "pear")
    assert e.value.code == "ABORTED"
    assert "host function `lookup` failed: KeyError: 'pear'" in e.value.message
    assert e.value.file == "host.alea" and e.value.line == 4
    expected = alea.key(5).key_data()[0] % 7
    np.testing.assert_array_equal(vm.call("draw", alea.key(5)), np.full(3, expected, np.float32))
    vm.register_function("lookup", lambda key: "not a Float")
    vm.load(m)
    with pytest.raises(alea.Error, match="returned a Str, not the declared Float"):
        vm.call("priced", "apple")


def test_a_file_without_main_or_missing(tmp_path):
    with pytest.raises(alea.Error) as e:
        alea.Module.from_file(str(tmp_path / "missing.alea"))
    assert e.value.code == "NOT_FOUND" and "cannot open" in e.value.message
    lib = alea.compile("fn f() -> Int = 1\n", "lib.alea")
    assert not lib.has_main
    vm = alea.Vm()
    vm.load(lib)
    with pytest.raises(alea.Error, match="has no `main`"):
        vm.run_main()


def test_a_program_from_a_file_runs_as_alea_run_does(tmp_path, capsys):
    path = tmp_path / "prog.alea"
    path.write_text("fn main(args: [Str]) uses rng {\n"
                    "  print(len(args));\n"
                    "  print(uniform([1]))\n"
                    "}\n")
    m = alea.Module.from_file(str(path))
    assert m.has_main
    vm = alea.Vm()
    vm.load(m)
    vm.run_main(["a", "b"], seed=0)
    out = capsys.readouterr().out
    assert out.startswith("2\n[")
    # What `alea run FILE a b` prints, when the binary is at hand (CTest's run.sh).
    alea_bin = os.environ.get("ALEA_BIN")
    if not alea_bin:
        pytest.skip("ALEA_BIN (the alea binary) is not set")
    expected = subprocess.run([alea_bin, "run", str(path), "a", "b"], check=True,
                              capture_output=True, text=True).stdout
    assert out == expected
