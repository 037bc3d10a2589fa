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


def _notebook(path, *sources):
    import nbformat

    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(s) for s in sources],
        metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}}),
        path)
    return path


def test_the_worker_writes_the_executed_copy_once_when_the_notebook_ends(tmp_path, monkeypatch):
    """papermill's engine writes at every cell's start and end; the worker's engine once, at the
    end, with every cell's output, and also when a cell fails (with the failing cell marked)."""
    import json

    import nbformat
    import papermill.engines

    from evalkit.workspace import worker

    writes = []
    real = papermill.engines.write_ipynb
    monkeypatch.setattr(papermill.engines, "write_ipynb",
                        lambda nb, path: writes.append(path) or real(nb, path))
    source = _notebook(tmp_path / "three.ipynb", "print(1)", "print(2)", "print(3)")
    spec = {"input": str(source), "output": str(tmp_path / "ran.ipynb"), "cwd": str(tmp_path),
            "parameters": {}, "result": str(tmp_path / "r.json")}
    assert worker.execute(spec)["status"] == "ok"
    assert writes == [str(tmp_path / "ran.ipynb")]
    ran = nbformat.read(tmp_path / "ran.ipynb", as_version=4)
    assert [c.outputs[0]["text"] for c in ran.cells if c.cell_type == "code" and c.outputs] == \
        ["1\n", "2\n", "3\n"]
    writes.clear()
    failing = _notebook(tmp_path / "fails.ipynb", "print(1)", "1 / 0", "print(3)")
    record = worker.execute(dict(spec, input=str(failing), output=str(tmp_path / "failed.ipynb")))
    assert (record["status"], record["error"]) == ("failed", "ZeroDivisionError")
    assert writes == [str(tmp_path / "failed.ipynb")]
    failed = json.loads((tmp_path / "failed.ipynb").read_text())
    assert failed["metadata"]["papermill"]["exception"] is True
