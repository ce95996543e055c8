#!/usr/bin/env python3
"""The ensemble of ensemble.alea on a Dask cluster: one task per
fold_in(key(seed), i), run by worker processes that share nothing, merged in
task order. Prints what `alea run ensemble.alea TASKS PATHS SEED` prints.

    python3 ensemble.py [--workers 2] [--tasks 8] [--paths 10000] [--seed 42] [--out FILE.npy]
    python3 ensemble.py --scheduler tcp://HOST:8786 ...   # an existing Dask cluster
"""

import argparse
import os
import sys
import time

import numpy as np

import alea

HERE = os.path.dirname(os.path.abspath(__file__))

# Each worker process keeps one Vm per module: loading is paid once per
# process, not per task.
_vms = {}


def run_task(module_bytes, root_key_data, index, paths):
    """Runs on a worker: task(root, index, paths), root rebuilt from its JAX
    key data (a RandState is used once, so each task makes its own)."""
    vm = _vms.get(module_bytes)
    if vm is None:
        vm = alea.Vm()
        vm.load(alea.Module.from_bytes(module_bytes))
        _vms[module_bytes] = vm
    return vm.call("task", alea.RandState.from_key(root_key_data), index, paths)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (2)")
    parser.add_argument("--scheduler", help="the address of an existing Dask scheduler")
    parser.add_argument("--tasks", type=int, default=8, help="tasks (8)")
    parser.add_argument("--paths", type=int, default=10000, help="paths per task (10000)")
    parser.add_argument("--seed", type=int, default=42, help="the seed (42)")
    parser.add_argument("--out", help="write the merged final values as .npy")
    args = parser.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    with open(os.path.join(HERE, "ensemble.alea")) as f:
        module = alea.compile(f.read(), "ensemble.alea")
    # What every task needs: the module as bytes and the root key's data.
    module_bytes = module.to_bytes()
    root = alea.key(args.seed).key_data()

    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=40)
        client = Client(cluster)
    try:
        client.wait_for_workers(args.workers if cluster is not None else 1)
        start = time.perf_counter()  # the cluster is up: the ensemble alone is timed
        futures = [client.submit(run_task, module_bytes, root, i, args.paths, pure=False)
                   for i in range(args.tasks)]
        parts = client.gather(futures)  # in task order, whoever ran them
        elapsed = time.perf_counter() - start
        workers = len(client.scheduler_info()["workers"])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    finals = np.concatenate(parts)
    vm = alea.Vm()
    vm.load(module)
    print(vm.call("report", finals))
    print(f"{args.tasks * args.paths / elapsed:,.0f} paths/s on {workers} workers "
          f"({elapsed:.2f} s, the cluster already up)", file=sys.stderr)
    if args.out:
        np.save(args.out, finals)


if __name__ == "__main__":
    main()
