"""The batch kernel the runner starts: text progress bars, and each cell's garbage collected
before the survivors are frozen out of the collector's sight."""

from evalkit.workspace.worker import KERNEL_ARGUMENTS


def _printed(kc, code: str) -> str:
    out = []

    def hook(msg):
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            raise AssertionError("\n".join(msg["content"]["traceback"]))

    kc.execute_interactive(code, timeout=60, output_hook=hook)
    return "".join(out).strip()


def test_a_batch_kernel_collects_each_cells_garbage_and_freezes_what_survives():
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", extra_arguments=KERNEL_ARGUMENTS)
    try:
        assert _printed(kc, "import tqdm.auto, tqdm.std\nprint(tqdm.auto.tqdm is tqdm.std.tqdm)") == "True"
        # a reference cycle that is garbage when the cell ends, and a survivor
        _printed(kc, "import gc, weakref\nclass Node: pass\na, b, kept = Node(), Node(), Node()\n"
                     "a.other, b.other = b, a\nprobe, kept_probe = weakref.ref(a), weakref.ref(kept)\n"
                     "frozen = gc.get_freeze_count()\ndel a, b")
        assert _printed(kc, "print(probe() is None, kept_probe() is kept, gc.get_freeze_count() > frozen)") \
            == "True True True"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
