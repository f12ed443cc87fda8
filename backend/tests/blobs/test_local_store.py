"""What only the local directory has: temp files beside the blobs, and strays in the directory."""

from __future__ import annotations

import os
import time
from pathlib import Path

from stallscope.blobs.local import LocalBlobStore


def test_stale_temp_files_are_removed_and_live_ones_and_strays_kept(tmp_path: Path) -> None:
    store = LocalBlobStore(tmp_path)
    abandoned, live = store.start_upload(1 << 20), store.start_upload(1 << 20)
    abandoned.write(b"killed mid-upload")
    live.write(b"still coming")
    old = time.time() - 3600
    os.utime(abandoned.temp_path, (old, old))
    (tmp_path / "incoming" / "notes.txt").write_text("not an upload")
    os.utime(tmp_path / "incoming" / "notes.txt", (old, old))
    assert store.remove_stale_incoming(older_than_s=600) == 1
    assert not abandoned.temp_path.exists()
    assert live.temp_path.exists()
    assert (tmp_path / "incoming" / "notes.txt").exists()
    live.write(b" and done")
    assert Path(live.commit().location).read_bytes() == b"still coming and done"
    assert LocalBlobStore(tmp_path / "nowhere").remove_stale_incoming(0) == 0


def test_files_that_are_not_at_a_content_address_are_not_listed(tmp_path: Path) -> None:
    store = LocalBlobStore(tmp_path)
    upload = store.start_upload(1 << 20)
    upload.write(b"first\n")
    blob = upload.commit()
    (tmp_path / "README").write_text("stray")
    (Path(blob.location).parent / "not-a-hash").write_text("stray")
    (tmp_path / "zz").mkdir()
    assert [b.sha256 for b in store.stored_blobs()] == [blob.sha256]
    assert list(LocalBlobStore(tmp_path / "nowhere").stored_blobs()) == []
