"""The real data sets: checksummed fetch from a mirror or a download."""

import gzip
import io as stdio

import pytest

from evalkit import data


def test_fetch_installs_everything_from_the_mirror_and_is_idempotent(external, mirror):
    for name, entry in data.REGISTRY.items():
        assert data.available(name, external), name
    before = {n: data.path_of(n, external).stat().st_mtime_ns for n in data.REGISTRY}
    data.fetch(mirror=mirror, root=external, progress=False)
    assert before == {n: data.path_of(n, external).stat().st_mtime_ns for n in data.REGISTRY}


@pytest.mark.parametrize("damage", ["corrupt", "truncated"])
def test_bad_mirror_file_is_refused_and_nothing_is_left(tmp_path, mirror, damage):
    entry = data.REGISTRY["trec2014-topics"]
    bad_mirror = tmp_path / "mirror"
    (bad_mirror / entry.path).parent.mkdir(parents=True)
    content = (mirror / entry.path).read_bytes()
    content = content[:-100] if damage == "truncated" else content.replace(b"MB171", b"MB999", 1)
    (bad_mirror / entry.path).write_bytes(content)
    root = tmp_path / "external"
    with pytest.raises(data.FetchError, match="checksum mismatch"):
        data.fetch(["trec2014-topics"], mirror=bad_mirror, root=root, progress=False)
    leftovers = [p for p in root.rglob("*") if p.is_file()]
    assert leftovers == []


def test_missing_mirror_file_and_unknown_name(tmp_path, monkeypatch):
    monkeypatch.delenv(data.MIRROR_ENV, raising=False)  # exercise the download path
    (tmp_path / "m").mkdir()
    with pytest.raises(data.FetchError, match="not in the mirror"):
        data.fetch(["stc-ja-dev"], mirror=tmp_path / "m", root=tmp_path / "x", progress=False)
    with pytest.raises(data.FetchError, match="unknown data set"):
        data.fetch(["nope"], root=tmp_path / "x")
    with pytest.raises(data.FetchError, match="no download location"):
        data.fetch(["trec2014-ttg-scores"], root=tmp_path / "x", progress=False)


class _Response:
    """A urlopen stand-in that serves ``body`` and can fail part-way."""

    def __init__(self, body, fail_after=None):
        self.stream, self.fail_after, self.sent = stdio.BytesIO(body), fail_after, 0
        self.headers = {"Content-Length": str(len(body))}

    def read(self, n):
        if self.fail_after is not None and self.sent >= self.fail_after:
            raise OSError("connection reset by peer")
        chunk = self.stream.read(min(n, 1000))
        self.sent += len(chunk)
        return chunk

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_interrupted_download_leaves_no_partial_file(tmp_path, mirror, monkeypatch):
    monkeypatch.delenv(data.MIRROR_ENV, raising=False)  # exercise the download path
    body = (mirror / data.REGISTRY["trec2014-topics"].path).read_bytes()
    monkeypatch.setattr(data.urllib.request, "urlopen", lambda *a, **k: _Response(body, 3000))
    root = tmp_path / "external"
    with pytest.raises(data.FetchError, match="download .* failed"):
        data.fetch(["trec2014-topics"], root=root, progress=False)
    assert [p for p in root.rglob("*") if p.is_file()] == []


def test_gzip_download_is_unpacked_and_verified(tmp_path, mirror, monkeypatch):
    monkeypatch.delenv(data.MIRROR_ENV, raising=False)  # exercise the download path
    calls = []
    entry = data.REGISTRY["stc-ja-test"]
    body = gzip.compress((mirror / entry.path).read_bytes(), mtime=0)
    monkeypatch.setattr(data.urllib.request, "urlopen",
                        lambda url, **k: calls.append(url) or _Response(body))
    got = data.fetch(["stc-ja-test"], root=tmp_path, progress=False)
    assert calls == [entry.url]  # really downloaded (and unpacked), not copied
    assert data.available("stc-ja-test", tmp_path) and got["stc-ja-test"].is_file()
