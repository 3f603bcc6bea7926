"""The order one request runs in, from call_trace.c's records (`scripts/bench files`).

Usage: python3 call_trace.py BINARY SOURCES PATH TRACE...
  BINARY   the tokenswap that wrote the traces (built with call_trace.c linked in)
  SOURCES  the checkout's Sources/ folder it was built from (absolute, ending in /)
  PATH     the path's name for the output (refresh, device)
  TRACE    one file per measured request of the same kind; the first is reported, the
           others must give the same figures (the check of determinism)
FILES_TRACE_EVENTS=1 also prints the first request's events, one a line.

Each record is one function entry (call_trace.c). Function names and files come from the
binary's debug information (llvm-symbolizer, swift-demangle).
  place        where a function's source is: product code by folder (Sources/TokenSwap/
               Grants/... is "Grants"), every other target by target name (HTTPServer,
               HTTPClient, Transport, ...). Functions with no source under SOURCES (the
               standard library's, the packages', compiler-made thunks) have no place:
               they are skipped, but still nest.
  returns      recovered from the frame pointers: an entry at a frame at or below an
               earlier frame of its thread (the stack grows down) means the earlier
               function has returned, and each caller that those returns uncover ran
               again, in order, before the new entry. Threads (the event loop, a task on
               the cooperative pool) each have their stack; a thread's returns are placed
               right after its latest entry of code with a place, so a handoff between
               threads gives one order however the scheduler interleaved the unwinding.
  the request  timers that fire while it runs (whatever runs under the event loop's
               `runDueTimers`: the idle sweep, other connections' deadlines) are not its
               work and are left out; the events before the server's first and after its
               last (the loop waiting) are trimmed.
  sequence     the request's events in order (entries and the returns that lead back to a
               caller), each reduced to its place; consecutive repeats merged into runs.
  folder switches
               in the product sequence: TokenSwap folders only, other targets left out (so
               Pipeline HTTPCore Pipeline is one run). N runs make N - 1 switches. A request
               that enters each folder once on the way down and leaves it once on the way
               back has about 2 x folders runs. Also given: the switches of the entries alone
               (returns ignored) and with every target in (not checked for determinism: the
               event loop's and the readers' turns depend on how the bytes arrive).
  down / back  split at the turning point, the entry of HTTPClient's
               `UpstreamConnection.finishExchange` (the provider's answer has been read). A
               request that makes no provider call is not split.
  way-back closures
               the closures (`closure #n in`, `implicit closure #n in`) on the call stack
               when HTTPServer's `Connection.respond` is entered (the answer reaches the
               server, which then writes it): the callbacks the answer climbed back through.
               Only the frames above the turning point count when the request called the
               provider, else the frames above the event loop's own (target Transport).
               Code that resumed after an `await` shows no stack below the resumption: the
               count then starts where the answer was last handed on synchronously.
"""
import collections, json, os, struct, subprocess, sys

binary, sources, path_name, traces = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
toolchain = os.path.dirname(os.path.realpath(subprocess.check_output(["which", "swift"], text=True).strip()))


def read(trace):
    data = open(trace, "rb").read()
    if not data:
        sys.exit(f"{trace}: empty (the trace buffer overflowed)")
    return [struct.unpack_from("<QQQ", data, i) for i in range(0, len(data), 24)]


runs = [read(t) for t in traces]
addresses = sorted({r[0] for run in runs for r in run})
symbolized = subprocess.run(
    [f"{toolchain}/llvm-symbolizer", f"--obj={binary}", "--output-style=JSON", "--no-inlines",
     "--functions=linkage", "--no-demangle"],
    input="".join(f"0x{a:x}\n" for a in addresses), capture_output=True, text=True, check=True)
located = {}
for line in symbolized.stdout.splitlines():
    answer = json.loads(line)
    symbol = answer["Symbol"][0] if answer.get("Symbol") else {}
    located[int(answer["Address"], 16)] = (symbol.get("FunctionName", "?"), symbol.get("FileName", ""))
linkage = sorted({name for name, _ in located.values()})
demangled = subprocess.run([f"{toolchain}/swift-demangle", "--simplified"], input="\n".join(linkage) + "\n",
                           capture_output=True, text=True, check=True).stdout.splitlines()
readable = dict(zip(linkage, demangled))


Function = collections.namedtuple("Function", "place file name product")


def function_at(name, file):
    """The place of code in the checkout (None for the rest), its file under Sources/."""
    name = readable.get(name, name)
    if not file.startswith(sources) or "/.build" in file or "/checkouts/" in file:
        return Function(None, file, name, False)
    rest = file[len(sources):]
    target, _, inner = rest.partition("/")
    if target == "TokenSwap":
        return Function(inner.rpartition("/")[0] or ".", rest, name, True)
    return Function(target, rest, name, False)


functions = {address: function_at(name, file) for address, (name, file) in located.items()}
product = lambda f: f.product


def is_closure(name):
    while " partial function for " in name.split(" in ")[0]:
        name = name.split(" partial function for ", 1)[1]
    return name.startswith("closure #") or name.startswith("implicit closure #")


def analyse(run):
    """The request's events [(kind, Function)] and the stack at Connection.respond."""
    stacks = collections.defaultdict(list)  # thread -> [(frame, Function, under a timer)]
    last = {}  # thread -> the index of its latest entry of code with a place
    keyed, at_respond = [], None  # [(position, kind, Function)]
    for index, (address, frame, thread) in enumerate(run):
        stack = stacks[thread]
        uncovered = []
        while stack and stack[-1][0] <= frame:
            stack.pop()
            if stack:
                uncovered.append(stack[-1])
        function = functions[address]
        timer = bool(stack and stack[-1][2]) or function.name == "EventLoop.runDueTimers()"
        # Returns are seen only at the thread's next entry, which may come after other
        # threads ran (a task started on the cooperative pool while the loop unwinds, or
        # the loop preempted): they are placed right after this thread's latest entry of
        # code with a place. Nothing of the thread's with a place ran in between, so its
        # own order is kept, and the order no longer hangs on which thread ran first.
        position = last.get(thread, index) + 0.5
        for _, caller, under_timer in uncovered:
            if caller.place and not under_timer:
                keyed.append((position, "return", caller))
        stack.append((frame, function, timer))
        if function.place and not timer:
            keyed.append((index, "enter", function))
        if function.place:
            last[thread] = index
        if at_respond is None and function.place == "HTTPServer" and function.name == "Connection.respond(_:)":
            at_respond = [f for _, f, _ in stack]
    events = []
    for _, kind, function in sorted(keyed, key=lambda k: k[0]):  # stable: a thread's returns keep their order
        if kind == "enter" or not events or events[-1][1] is not function:
            events.append((kind, function))
    server = [i for i, (_, f) in enumerate(events) if f.place == "HTTPServer"]
    return events[server[0]:server[-1] + 1] if server else events, at_respond


def merged(places):
    return [p for i, p in enumerate(places) if i == 0 or places[i - 1] != p]


def figures(run):
    events, at_respond = analyse(run)
    out = {"events": events}
    out["files"] = sorted({f.file for _, f in events if product(f)})
    out["folders"] = sorted({f.place for _, f in events if product(f)})
    out["sequence"] = merged([f.place for _, f in events if product(f)])
    out["entries"] = merged([f.place for kind, f in events if product(f) and kind == "enter"])
    out["everything"] = merged([f.place for _, f in events])
    turn = next((i for i, (kind, f) in enumerate(events) if kind == "enter" and f.place == "HTTPClient"
                 and f.name.startswith("UpstreamConnection.finishExchange")), None)
    out["turn"] = turn
    if turn is not None:
        out["down"] = merged([f.place for _, f in events[:turn] if product(f)])
        out["back"] = merged([f.place for _, f in events[turn:] if product(f)])
    chain, origin = [], "the event loop's frames"
    if at_respond is not None:
        start = 0
        for i, f in enumerate(at_respond):
            if f.place == "Transport":
                start = i + 1
        if turn is not None:
            exchange = [i for i, f in enumerate(at_respond) if f.name.startswith("UpstreamConnection.finishExchange")]
            if exchange:
                start, origin = exchange[0] + 1, "UpstreamConnection.finishExchange"
            else:
                origin = "the event loop's frames (the provider's answer was handed on asynchronously)"
        chain = [f for f in at_respond[start:] if f.place and is_closure(f.name)]
    out["closures"], out["origin"], out["responded"] = chain, origin, at_respond is not None
    return out


def short(places):
    return " ".join(places)


results = [figures(run) for run in runs]
first = results[0]
# Not "everything": how often the event loop and the readers run depends on how the bytes
# arrive (one read or two), which no request controls.
keys = ["files", "folders", "sequence", "entries", "closures"]
differing = [k for k in keys if any(r[k] != first[k] for r in results[1:])]
print(f"{path_name} trace: {len(traces)} measured requests, {len(runs[0])} function entries in the first, "
      f"{len(first['events'])} events with places; "
      + ("every figure below the same for each request" if not differing else
         "THE REQUESTS DIFFER in: " + ", ".join(differing)))
folders, sequence = first["folders"], first["sequence"]
visits = collections.Counter(sequence)
print(f"{path_name} order: {len(first['files'])} product files in {len(folders)} folders; "
      f"{len(sequence) - 1} folder switches ({len(sequence)} runs, against 2 x folders = {2 * len(folders)}); "
      f"entries alone: {len(first['entries']) - 1} switches")
print("  runs per folder: " + " ".join(f"{f} {visits[f]}" for f in folders))
if first["turn"] is not None:
    down, back = first["down"], first["back"]
    joined = 1 if down and back and down[-1] == back[0] else 0  # a run across the turn counts once, down
    print(f"  down, to the provider's answer: {len(down)} runs: {short(down)}")
    print(f"  back, from the answer: {len(back) - joined} more runs: {short(back[joined:])}")
else:
    print(f"  no provider call: not split; sequence: {short(sequence)}")
print(f"  with every target: {len(first['everything']) - 1} switches (varies with how the bytes arrive)")
if not first["responded"]:
    print(f"{path_name} way back: Connection.respond never entered")
else:
    chain = first["closures"]
    files = {f.file for f in chain}
    print(f"{path_name} way back: {len(chain)} closures in {len(files)} files "
          f"({sum(1 for f in chain if product(f))} in product code), on the stack at Connection.respond "
          f"above {first['origin']}, innermost last:")
    for f in chain:
        print(f"    {f.file}: {f.name[:150]}")
if os.environ.get("FILES_TRACE_EVENTS"):
    for kind, f in first["events"]:
        print(f"  {kind:6} {f.place:12} {f.file:52} {f.name[:160]}")
