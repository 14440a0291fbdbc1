#!/usr/bin/env python3
"""Rounds of replication by Litestream, killed at random points, restored.

Run by Scripts/replication-test.sh (which builds the crash writer child and
installs Litestream); see there. Each round, in a new folder:

1. The writer child (`write DB litestream`: a GRDBLite DatabasePool that
   applies CrashMigrations, then commits numbered CrashWorkload
   transactions while its reader threads check every state they see)
   starts; `litestream replicate` starts beside it, replicating to a
   `file` replica; the round starts at its first snapshot. Every "migrated N" and "committed N" line the writer
   prints is an acknowledgement, timed when this script reads it.
2. After a random time, SIGKILL (--kinds): Litestream (the writer goes
   on a little, then is killed: its later commits can't reach the
   replica), both at once (the machine dies), or, not by default, the
   writer alone (Litestream goes on, then is killed once the window has
   passed). The moment Litestream dies is the moment of the loss. The
   writer alone is not a default: when it dies between writing a commit
   frame to the WAL and publishing it in the WAL index, SQLite discards
   that transaction and overwrites its frames, while Litestream 0.5.17,
   which reads the WAL file, has replicated it; the restored database is
   then malformed (see BeyondOneMachine.md).
   With --pause-litestream, Litestream is stopped (SIGSTOP) instead, the
   writer goes on for three windows and margins, then both die (the
   moment of the loss): the check must then fail.
3. `litestream restore` into a new file; the writer child, as
   `verify RESTORED litestream`, opens it with GRDBLite and checks
   integrity_check, the applied migrations (m1...mM, each whole) and the
   transactions (1...N, each whole).
4. Checks: the restored migrations and transactions are a prefix of those
   begun (never one that didn't start), transactions only after every
   migration, and every acknowledgement older than the window plus the
   margin at the moment of the loss is restored. The recovery point of
   the round: the acknowledged transactions lost, and the age of the
   oldest of them at the moment of the loss.

The last line: `replication: N rounds, T torn, L lost beyond the window,
lost p50/p99/max A/B/C ms`. Exits non-zero if a round failed.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

MIGRATIONS = 20


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writer", required=True, help="the crash writer child (an executable)")
    parser.add_argument("--writer-env", action="append", default=[], help="NAME=VALUE for the writer")
    parser.add_argument("--litestream", default="litestream")
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None, help="replays the rounds of a seed")
    parser.add_argument("--sync-interval-ms", type=int, default=100)
    parser.add_argument("--monitor-interval-ms", type=int, default=100)
    parser.add_argument("--margin-ms", type=int, default=2000,
                        help="added to the window (monitor + sync interval): process scheduling on a loaded machine")
    parser.add_argument("--kinds", default="litestream,both",
                        help="the kills to draw from: litestream, both, writer (see BeyondOneMachine.md: with "
                             "`writer`, Litestream 0.5.17 can replicate a commit that SQLite then discards)")
    parser.add_argument("--pause-litestream", action="store_true",
                        help="SIGSTOP Litestream while the writer goes on: the check must fail")
    parser.add_argument("--vfs", help="the Litestream VFS extension: runs the read replica phase")
    parser.add_argument("--replica-seconds", type=float, default=5,
                        help="how long the read replica phase runs (0: none)")
    parser.add_argument("--round", type=int, default=None, help="runs only this round of the seed")
    parser.add_argument("--keep", action="store_true", help="keep the round folders")
    return parser.parse_args()


class Writer:
    """The writer child; its acknowledgements, timed as they are read."""

    def __init__(self, arguments, folder):
        self.events = []  # (kind, number, monotonic time): kind "migrated" or "committed"
        self.begun = 0
        self.stderr_path = os.path.join(folder, "writer.stderr")
        self.process = subprocess.Popen(
            [arguments.writer, "write", os.path.join(folder, "db.sqlite"), "litestream"],
            stdout=subprocess.PIPE, stderr=open(self.stderr_path, "wb"),
            env=dict(os.environ, **dict(pair.split("=", 1) for pair in arguments.writer_env)))
        self.first_line = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for raw in self.process.stdout:
            now = time.monotonic()
            words = raw.decode().split()
            if words[0] in ("migrated", "committed"):
                self.events.append((words[0], int(words[1]), now))
            elif words[0] == "begin":
                self.begun = int(words[1])
            self.first_line.set()
        self.first_line.set()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.thread.join()
        if self.process.returncode != -signal.SIGKILL:
            with open(self.stderr_path) as stderr:
                raise RoundFailure(f"the writer exited by itself ({self.process.returncode}): {stderr.read()}")


class RoundFailure(Exception):
    pass


def wait_for_snapshot(folder, timeout=30):
    """Waits for Litestream's first snapshot in the replica: the rounds
    start from a replicated database (the time before it is Litestream's
    start, not its window)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for _, _, files in os.walk(os.path.join(folder, "replica")):
            if any(name.endswith(".ltx") for name in files):
                return
        time.sleep(0.01)
    raise RoundFailure(f"no snapshot in the replica after {timeout} s")


def write_config(arguments, folder):
    """Writes the Litestream configuration of `folder`'s database (a file
    replica beside it) and returns its path."""
    config = os.path.join(folder, "litestream.yml")
    with open(config, "w") as file:
        file.write(f"""dbs:
  - path: {folder}/db.sqlite
    monitor-interval: {arguments.monitor_interval_ms}ms
    replica:
      type: file
      path: {folder}/replica
      sync-interval: {arguments.sync_interval_ms}ms
""")
    return config


def run_round(arguments, index, rng, folder):
    window = (arguments.sync_interval_ms + arguments.monitor_interval_ms) / 1000
    margin = arguments.margin_ms / 1000
    config = write_config(arguments, folder)
    victim = rng.choice(arguments.kinds.split(","))
    run_time = rng.uniform(0.2, 2.0)
    writer_extra = rng.uniform(0.0, 0.5)
    writer = Writer(arguments, folder)
    litestream = None
    try:
        writer.first_line.wait(30)
        litestream = subprocess.Popen(
            [arguments.litestream, "replicate", "-config", config],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "litestream.log"), "wb"))
        wait_for_snapshot(folder)
        time.sleep(run_time)
        if arguments.pause_litestream:
            victim = "paused litestream"
            litestream.send_signal(signal.SIGSTOP)
            time.sleep(3 * (window + margin))
            loss = time.monotonic()
            writer.kill()
        elif victim == "writer":
            writer.kill()
            time.sleep(window + margin)
            loss = time.monotonic()
        elif victim == "litestream":
            loss = time.monotonic()
            litestream.send_signal(signal.SIGKILL)
            time.sleep(writer_extra)
            writer.kill()
        else:
            loss = time.monotonic()
            litestream.send_signal(signal.SIGKILL)
            writer.kill()
    finally:
        if writer.process.poll() is None:
            writer.process.kill()
            writer.process.wait()
        if litestream is not None:
            litestream.send_signal(signal.SIGKILL)
            litestream.wait()
    restored = os.path.join(folder, "restored.sqlite")
    result = subprocess.run(
        [arguments.litestream, "restore", "-if-replica-exists", "-o", restored, f"file://{folder}/replica"],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise RoundFailure(f"litestream restore failed: {result.stderr.strip()}")
    migrations, transactions = 0, 0
    if os.path.exists(restored):
        result = subprocess.run(
            [arguments.writer, "verify", restored, "litestream"], capture_output=True, text=True,
            env=dict(os.environ, **dict(pair.split("=", 1) for pair in arguments.writer_env)))
        if result.returncode != 0 or not result.stdout.startswith("verified "):
            raise Torn(f"the restored database: {result.stderr.strip() or result.stdout.strip()}")
        migrations, transactions = map(int, result.stdout.split()[1:3])
    acknowledged_migrations = max([n for kind, n, _ in writer.events if kind == "migrated"], default=0)
    if migrations > acknowledged_migrations + 1:
        raise Torn(f"{migrations} migrations restored, only {acknowledged_migrations} acknowledged")
    if transactions > writer.begun:
        raise Torn(f"transaction {transactions} restored, only {writer.begun} begun")
    if transactions > 0 and migrations < MIGRATIONS:
        raise Torn(f"transactions restored after {migrations} migrations")

    def restored_event(kind, number):
        return number <= (migrations if kind == "migrated" else transactions)

    lost = [(kind, number, when) for kind, number, when in writer.events
            if when < loss and not restored_event(kind, number)]
    lost_ms = (loss - lost[0][2]) * 1000 if lost else 0.0
    beyond = [event for event in lost if event[2] < loss - window - margin]
    acknowledged = sum(1 for _, _, when in writer.events if when < loss)
    line = (f"round {index}: kill {victim} after {run_time * 1000:.0f} ms: {acknowledged} acknowledged, "
            f"restored {migrations} migrations and {transactions} transactions: "
            f"lost {len(lost)}, {lost_ms:.0f} ms")
    if beyond:
        kind, number, when = beyond[0]
        line += (f"; LOST BEYOND THE WINDOW: {len(beyond)}, the first {kind} {number}, "
                 f"acknowledged {(loss - when) * 1000:.0f} ms before the loss "
                 f"(window {window * 1000:.0f} ms + margin {margin * 1000:.0f} ms)")
    return line, lost_ms, bool(beyond)


class Torn(RoundFailure):
    pass


def follow_replica(arguments, folder):
    """The read replica phase: the writer commits, Litestream replicates,
    and another process (sharing nothing with the writer but the replica
    folder) follows the replica through the Litestream VFS with a
    read-only GRDBLite DatabaseQueue and a ValueObservation ("seen N").
    Returns the lags, commit to first observation, in ms."""
    config = write_config(arguments, folder)
    writer = Writer(arguments, folder)
    litestream = replica = None
    seen = []  # (N, monotonic time)
    try:
        writer.first_line.wait(30)
        litestream = subprocess.Popen(
            [arguments.litestream, "replicate", "-config", config],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "litestream.log"), "wb"))
        wait_for_snapshot(folder)
        environment = dict(os.environ, **dict(pair.split("=", 1) for pair in arguments.writer_env))
        environment.update(LITESTREAM_REPLICA_URL=f"file://{folder}/replica", GRDBLITE_LITESTREAM_VFS=arguments.vfs)
        replica_stderr = os.path.join(folder, "replica.stderr")
        replica = subprocess.Popen(
            [arguments.writer, "replica", "file:replica.sqlite?vfs=litestream", "litestream"],
            stdout=subprocess.PIPE, stderr=open(replica_stderr, "wb"), env=environment)

        def read():
            for raw in replica.stdout:
                words = raw.decode().split()
                if words[0] == "seen":
                    seen.append((int(words[1]), time.monotonic()))
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        start = time.monotonic()
        time.sleep(arguments.replica_seconds)
        if replica.poll() is not None:
            with open(replica_stderr) as stderr:
                raise RoundFailure(f"the replica exited ({replica.returncode}): {stderr.read()}")
        replica.kill()
        replica.wait()
        reader.join()
        writer.kill()
    finally:
        for process in (replica, litestream):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
        if writer.process.poll() is None:
            writer.process.kill()
            writer.process.wait()
    lags = []
    for kind, number, when in writer.events:
        if kind != "committed" or when < start:
            continue
        first = next((seen_at for seen_number, seen_at in seen if seen_number >= number), None)
        if first is not None:
            lags.append(max(0.0, first - when) * 1000)
    if not lags:
        raise RoundFailure(f"the replica saw no commit in {arguments.replica_seconds} s (seen: {seen[-3:]})")
    return lags, len(seen)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def main():
    arguments = parse_arguments()
    seed = arguments.seed if arguments.seed is not None else random.randrange(1 << 32)
    window = arguments.sync_interval_ms + arguments.monitor_interval_ms
    print(f"replication: seed {seed} (replay with --seed {seed}), window {window} ms "
          f"(monitor-interval {arguments.monitor_interval_ms} ms + sync-interval {arguments.sync_interval_ms} ms), "
          f"margin {arguments.margin_ms} ms", flush=True)
    root = tempfile.mkdtemp(prefix="grdblite-replication-")
    torn, beyond_count, failures, losses, kept = 0, 0, 0, [], []
    replica_failed = False
    try:
        indices = range(arguments.rounds) if arguments.round is None else [arguments.round]
        for index in indices:
            rng = random.Random(seed * 1_000_003 + index)
            folder = os.path.join(root, f"round-{index}")
            os.mkdir(folder)
            try:
                line, lost_ms, beyond = run_round(arguments, index, rng, folder)
                losses.append(lost_ms)
                beyond_count += beyond
                print(line, flush=True)
            except Torn as error:
                torn += 1
                kept.append(folder)
                print(f"round {index}: TORN: {error}", flush=True)
            except RoundFailure as error:
                failures += 1
                kept.append(folder)
                print(f"round {index}: FAILED: {error}", flush=True)
            if not arguments.keep and folder not in kept:
                shutil.rmtree(folder, ignore_errors=True)
        replica_phase = arguments.vfs and arguments.replica_seconds > 0
        if replica_phase and arguments.round is None and not arguments.pause_litestream:
            folder = os.path.join(root, "replica")
            os.makedirs(folder, exist_ok=True)
            try:
                lags, observed = follow_replica(arguments, folder)
                print(f"replica: {len(lags)} commits followed through the Litestream VFS by another process "
                      f"({observed} observed values, each whole and none going back), "
                      f"lag p50/p99/max {percentile(lags, 0.5):.0f}/{percentile(lags, 0.99):.0f}/{max(lags):.0f} ms",
                      flush=True)
            except RoundFailure as error:
                replica_failed = True
                kept.append(folder)
                print(f"replica: FAILED: {error}", flush=True)
    finally:
        if not arguments.keep and not kept:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"replication: rounds kept in {root}: {', '.join(kept) if kept else 'all'}")
    if failures:
        print(f"replication: {failures} rounds failed", flush=True)
    print(f"replication: {len(losses) + torn + failures} rounds, {torn} torn, {beyond_count} lost beyond the window, "
          f"lost p50/p99/max {percentile(losses, 0.5):.0f}/{percentile(losses, 0.99):.0f}/"
          f"{max(losses, default=0):.0f} ms")
    sys.exit(1 if torn or beyond_count or failures or replica_failed else 0)


if __name__ == "__main__":
    main()
