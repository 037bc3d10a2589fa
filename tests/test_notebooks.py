"""Every notebook runs through papermill with quick parameters, twice, byte-identically."""

import hashlib

import papermill
import pytest

from evalkit import reproduce

pytestmark = pytest.mark.notebook


def _digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("nb", reproduce.NOTEBOOKS, ids=lambda nb: nb.name)
def test_notebook_writes_its_promised_outputs_deterministically(nb, tmp_path, small_collection):
    params = dict(nb.quick, data_dir=str(small_collection))
    digests = []
    for attempt in ("first", "second"):
        out = tmp_path / attempt
        reproduce.run_notebook(nb, out_dir=out, executed_dir=tmp_path / f"nb-{attempt}",
                               parameters=params)
        missing = [f for f in nb.outputs if not (out / f).is_file()]
        assert not missing, f"{nb.name} did not write {missing}"
        assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
        digests.append(_digests(out))
    assert digests[0] == digests[1]


def test_notebook_stops_on_a_bad_parameter_naming_it(tmp_path, small_collection):
    nb = reproduce.NOTEBOOKS[0]
    with pytest.raises(papermill.PapermillExecutionError, match=r"parameter p = 1\.5"):
        reproduce.run_notebook(nb, out_dir=tmp_path / "out", executed_dir=tmp_path,
                               parameters=dict(nb.quick, p=1.5, data_dir=str(small_collection)))
    assert not (tmp_path / "out").exists()
