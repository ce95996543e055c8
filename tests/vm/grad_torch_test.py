"""`grad` against PyTorch's autograd on the same models, weights and
dropout masks.

    /usr/bin/python3 grad_torch_test.py ALEA [--verbose]

NumPy draws the weights and a batch, written as .npy files. An Alea program
loads them, takes `value_and_grad` of two losses and saves the loss and
every gradient with `save_npy`:

- `mlp`: the benchmark's network shape, smaller (64-48-32-10, batch 16):
  ReLU, dropout 0.2 after both hidden layers, softmax cross-entropy
  (logsumexp minus the label's logit), its parameters a record;
- `mix`: `- / exp log tanh sqrt sigmoid abs`, broadcasting against a row,
  a column and a Float, `transpose`, `reshape`, `x @ transpose(w)`,
  `max`, `min`, `mean`, `logsumexp` along an axis, `item` and a Float
  function after it, its parameters a tuple;
- `more`: `softmax`, `where`, `concat`, `stack`, a subscript with a slice
  and an index tensor, `solve`, `inv`, `cholesky`, `det`, `cumsum`,
  `lgamma`, `roll`, `sort`, `prod`, and `@`, `inv` and `cholesky` of
  stacks of matrices.

The dropout masks are exported by the program too: `key(7)` is a value, so
the program builds it again, splits it the same way and applies `dropout`
to ones, which is the mask divided by the keep rate. PyTorch multiplies by
those masks, computes the same losses in float32 and differentiates them.
Each Alea gradient must lie within `TOLERANCE` of PyTorch's (largest
difference over the largest element of PyTorch's gradient: f32 sums in
different orders), and the program gives the same bytes with and without
the JIT and on 1 and 2 threads. Exit 77 (skipped) without NumPy or
PyTorch (Debian's python3-numpy, python3-torch).
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import torch
except ImportError:
    print("no numpy or torch: skipped")
    sys.exit(77)

F = np.float32
VERBOSE = "--verbose" in sys.argv
# The largest difference allowed, relative to the largest element of
# PyTorch's gradient: about 2^-23 times the longest sum (64) times a margin.
TOLERANCE = 1e-5
RATE = 0.2

PROGRAM = """
type Mlp = { w1: Tensor, b1: Tensor, w2: Tensor, b2: Tensor, w3: Tensor, b3: Tensor }

fn mlp_loss(p: Mlp, s: RandState, x: Tensor, y: Tensor) -> Float {
  let (s1, s2) = split(s);
  let h1 = dropout(s1, relu(x @ p.w1 + p.b1), RATE);
  let h2 = dropout(s2, relu(h1 @ p.w2 + p.b2), RATE);
  let z = h2 @ p.w3 + p.b3;
  item(mean(logsumexp(z, axis: 1) - sum(z * y, axis: 1)))
}

fn mix_loss(p: (Tensor, Tensor, Tensor), x: Tensor) -> Float {
  let (a, row, col) = p;
  let u = tanh(x @ a) / (abs(row) + 1.0) - sigmoid(col) * 0.5;
  let v = sqrt(exp(u * 0.3) + log(abs(u) + 2.0)) + transpose(u) @ u;
  let w = reshape(v, [4, 16]) @ transpose(reshape(a, [4, 16]));
  let r = sum(max(w, axis: 1)) - sum(min(w, axis: 0)) + mean(logsumexp(u, axis: 0));
  let m = x @ transpose(a * 2.0);
  tanh(item(r + mean(m * m)) / 200.0)
}

fn more_loss(p: (Tensor, Tensor), x: Tensor) -> Float {
  let (a, v) = p;
  let s = softmax(x @ a, axis: 1);
  let w = where(s > 0.25, s * 2.0, s - v);
  let c = concat([w, stack([v, v * v])]);
  let sel = c[1:5, tensor([0, 2, 2])];
  let m = a @ transpose(a) + eye(4) * 4.0;
  let q = solve(m, v) + inv(m) @ reshape(v, [4, 1])[:, 0];
  item(sum(sel * sel) + sum(cumsum(v) * q) + sum(cholesky(m)) + sum(lgamma(abs(v) + 1.0))
       + det(m) * 0.01 + sum(roll(v, 1) * v) + sum(sort(v) * tensor([1.0, 2.0, 3.0, 4.0]))
       + sum(cholesky(stack([m, m * 2.0]))) + sum((stack([a, a * v]) @ a) * 0.1)
       + sum(inv(stack([m, m + eye(4)]))) + sum(prod(a * 0.5 + 1.0, axis: 0)))
}

fn main() {
  let d = DIR;
  let p = Mlp { w1: load_npy(d + "w1.npy"), b1: load_npy(d + "b1.npy"),
                w2: load_npy(d + "w2.npy"), b2: load_npy(d + "b2.npy"),
                w3: load_npy(d + "w3.npy"), b3: load_npy(d + "b3.npy") };
  let (loss, g) = value_and_grad(mlp_loss)(p, key(7), load_npy(d + "x.npy"), load_npy(d + "y.npy"));
  save_npy(d + "mlp_loss.npy", tensor([loss]));
  save_npy(d + "g_w1.npy", g.w1);
  save_npy(d + "g_b1.npy", g.b1);
  save_npy(d + "g_w2.npy", g.w2);
  save_npy(d + "g_b2.npy", g.b2);
  save_npy(d + "g_w3.npy", g.w3);
  save_npy(d + "g_b3.npy", g.b3);
  // The masks of mlp_loss's dropouts: the same key, split the same way.
  let (m1, m2) = split(key(7));
  save_npy(d + "mask1.npy", dropout(m1, ones([BATCH, 48]), RATE));
  save_npy(d + "mask2.npy", dropout(m2, ones([BATCH, 32]), RATE));

  let q = (load_npy(d + "a.npy"), load_npy(d + "row.npy"), load_npy(d + "col.npy"));
  let (mix, (ga, grow, gcol)) = value_and_grad(mix_loss)(q, load_npy(d + "xm.npy"));
  save_npy(d + "mix_loss.npy", tensor([mix]));
  save_npy(d + "g_a.npy", ga);
  save_npy(d + "g_row.npy", grow);
  save_npy(d + "g_col.npy", gcol);

  let r = (load_npy(d + "am.npy"), load_npy(d + "v.npy"));
  let (more, (gam, gv)) = value_and_grad(more_loss)(r, load_npy(d + "xq.npy"));
  save_npy(d + "more_loss.npy", tensor([more]));
  save_npy(d + "g_am.npy", gam);
  save_npy(d + "g_v.npy", gv);
}
"""

BATCH = 16


def write_inputs(rng, d):
    def save(name, a):
        np.save(os.path.join(d, name + ".npy"), np.asarray(a, F))

    sizes = [64, 48, 32, 10]
    for i in range(3):
        fan_in, fan_out = sizes[i], sizes[i + 1]
        save(f"w{i + 1}", rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in))
        save(f"b{i + 1}", rng.standard_normal(fan_out) * 0.1)
    save("x", rng.standard_normal((BATCH, 64)))
    save("y", np.eye(10)[rng.integers(0, 10, BATCH)])
    save("a", rng.standard_normal((8, 8)) * 0.5)
    save("row", rng.standard_normal(8))
    save("col", rng.standard_normal((8, 1)))
    save("xm", rng.standard_normal((8, 8)))
    save("am", rng.standard_normal((4, 4)) * 0.5)
    save("v", rng.standard_normal(4))
    save("xq", rng.standard_normal((4, 4)))


def torch_gradients(d):
    def load(name):
        return torch.from_numpy(np.load(os.path.join(d, name + ".npy")))

    def leaf(name):
        return load(name).requires_grad_(True)

    out = {}
    p = {k: leaf(k) for k in ["w1", "b1", "w2", "b2", "w3", "b3"]}
    x, y = load("x"), load("y")
    h1 = torch.relu(x @ p["w1"] + p["b1"]) * load("mask1")
    h2 = torch.relu(h1 @ p["w2"] + p["b2"]) * load("mask2")
    z = h2 @ p["w3"] + p["b3"]
    loss = torch.mean(torch.logsumexp(z, 1) - torch.sum(z * y, 1))
    loss.backward()
    out["mlp_loss"] = np.array([loss.item()], F)
    for k, t in p.items():
        out["g_" + k] = t.grad.numpy()

    a, row, col = leaf("a"), leaf("row"), leaf("col")
    xm = load("xm")
    u = torch.tanh(xm @ a) / (torch.abs(row) + 1.0) - torch.sigmoid(col) * 0.5
    v = torch.sqrt(torch.exp(u * 0.3) + torch.log(torch.abs(u) + 2.0)) + u.T @ u
    w = v.reshape(4, 16) @ a.reshape(4, 16).T
    r = (torch.sum(torch.max(w, 1).values) - torch.sum(torch.min(w, 0).values)
         + torch.mean(torch.logsumexp(u, 0)))
    m = xm @ (a * 2.0).T
    mix = torch.tanh((r + torch.mean(m * m)) / 200.0)
    mix.backward()
    out["mix_loss"] = np.array([mix.item()], F)
    out["g_a"], out["g_row"], out["g_col"] = a.grad.numpy(), row.grad.numpy(), col.grad.numpy()

    am, v = leaf("am"), leaf("v")
    xq = load("xq")
    sm = torch.softmax(xq @ am, 1)
    w = torch.where(sm > 0.25, sm * 2.0, sm - v)
    c = torch.cat([w, torch.stack([v, v * v])])
    sel = c[1:5][:, [0, 2, 2]]
    m = am @ am.T + torch.eye(4) * 4.0
    q = torch.linalg.solve(m, v) + torch.inverse(m) @ v
    more = (torch.sum(sel * sel) + torch.sum(torch.cumsum(v, 0) * q)
            + torch.sum(torch.linalg.cholesky(m)) + torch.sum(torch.lgamma(torch.abs(v) + 1.0))
            + torch.det(m) * 0.01 + torch.sum(torch.roll(v, 1) * v)
            + torch.sum(torch.sort(v).values * torch.tensor([1.0, 2.0, 3.0, 4.0]))
            + torch.sum(torch.linalg.cholesky(torch.stack([m, m * 2.0])))
            + torch.sum((torch.stack([am, am * v]) @ am) * 0.1)
            + torch.sum(torch.inverse(torch.stack([m, m + torch.eye(4)])))
            + torch.sum(torch.prod(am * 0.5 + 1.0, 0)))
    more.backward()
    out["more_loss"] = np.array([more.item()], F)
    out["g_am"], out["g_v"] = am.grad.numpy(), v.grad.numpy()
    return out


def run_alea(alea, d, flags):
    program = (PROGRAM.replace("DIR", '"' + d + '/"').replace("RATE", repr(RATE))
               .replace("BATCH", str(BATCH)))
    path = os.path.join(d, "grad.alea")
    with open(path, "w") as f:
        f.write(program)
    result = subprocess.run([alea, "run", *flags, path], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"alea run {' '.join(flags)} failed:\n{result.stderr}")
    names = [n for n in sorted(os.listdir(d))
             if n.startswith(("g_", "mlp_", "mix_", "more_", "mask"))]
    return {n[:-4]: np.load(os.path.join(d, n)) for n in names}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    alea = sys.argv[1]
    torch.set_num_threads(1)
    failures = []
    with tempfile.TemporaryDirectory() as d:
        write_inputs(np.random.default_rng(20261129), d)
        runs = {}
        for flags in ([], ["--no-jit"], ["--threads", "2"]):
            runs[" ".join(flags) or "default"] = run_alea(alea, d, flags)
        got = runs["default"]
        for name, other in runs.items():
            for k, v in other.items():
                if v.tobytes() != got[k].tobytes():
                    failures.append(f"{k}: {name} differs from the default run")
        # The exported masks: 0 or 1 / (1 - rate), about `rate` of them 0.
        for k in ["mask1", "mask2"]:
            m = got[k]
            keep = np.float32(1.0) / np.float32(1.0 - RATE)
            if not np.all((m == 0) | (m == keep)) or not 0.1 < np.mean(m == 0) < 0.3:
                failures.append(f"{k}: not a dropout mask")
        want = torch_gradients(d)
        for k, w in want.items():
            g = got[k]
            if g.shape != w.shape or g.dtype != w.dtype:
                failures.append(f"{k}: {g.dtype}{list(g.shape)} vs torch's {w.dtype}{list(w.shape)}")
                continue
            scale = max(float(np.max(np.abs(w))), 1e-30)
            error = float(np.max(np.abs(g.astype(np.float64) - w))) / scale if g.size else 0.0
            if VERBOSE:
                print(f"{k:10} {str(list(g.shape)):10} relative error {error:.2e}"
                      + (f" (value {g[0]:.9g})" if k.endswith("loss") else ""))
            if not error <= TOLERANCE:
                failures.append(f"{k}: relative error {error:.2e} > {TOLERANCE:.0e}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(want)} results against PyTorch {torch.__version__}, 3 flag sets: "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
