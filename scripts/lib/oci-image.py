#!/usr/bin/env python3
"""Packs container images as OCI-layout tars for `ctr images import`, without a registry or a daemon
(scripts/local-cluster.sh).

  oci-image.py rootfs DIR NAME OUT.tar [options]      one layer: the directory's tree
  oci-image.py extend BASE.tar NAME OUT.tar [options] BASE's layers and one more
      --file SRC:DEST[:MODE]    (extend) a file in the new layer, owned by root
      --entrypoint JSON --cmd JSON --env K=V --workdir DIR --user UID[:GID]

Layers are uncompressed tars (their digest is their diff ID: nothing to compress on every run), with
owners, modes, links and device nodes as they are on disk. NAME is the full reference
(localhost/nginx:kubeloop); containerd takes it from the io.containerd.image.name annotation.
"""
import argparse
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import tempfile

MANIFEST = "application/vnd.oci.image.manifest.v1+json"
CONFIG = "application/vnd.oci.image.config.v1+json"
LAYER = "application/vnd.oci.image.layer.v1.tar"
ARCH = {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)


def digest_of(path):
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha.update(chunk)
    return "sha256:" + sha.hexdigest(), os.path.getsize(path)


def layer_from_dir(root, out):
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        for entry in sorted(os.listdir(root)):
            tar.add(os.path.join(root, entry), arcname=entry, recursive=True)


def layer_from_files(files, out):
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        dirs = set()
        for spec in files:
            parts = spec.split(":")
            src, dest = parts[0], parts[1].lstrip("/")
            mode = int(parts[2], 8) if len(parts) > 2 else 0o644
            path = ""
            for part in dest.split("/")[:-1]:
                path = f"{path}/{part}" if path else part
                if path not in dirs:
                    dirs.add(path)
                    info = tarfile.TarInfo(path)
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
            info = tar.gettarinfo(src, arcname=dest)
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mode = mode
            with open(src, "rb") as f:
                tar.addfile(info, f)


def image_config(base, args, diff_ids):
    config = dict(base.get("config") or {})
    if args.entrypoint is not None:
        config["Entrypoint"] = json.loads(args.entrypoint)
        config.pop("Cmd", None)
    if args.cmd is not None:
        config["Cmd"] = json.loads(args.cmd)
    if args.env:
        env = [e for e in config.get("Env", []) if e.split("=")[0] not in {a.split("=")[0] for a in args.env}]
        config["Env"] = env + args.env
    if args.workdir:
        config["WorkingDir"] = args.workdir
    if args.user:
        config["User"] = args.user
    config.setdefault("Env", ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"])
    history = list(base.get("history", [])) + [{"created_by": "scripts/lib/oci-image.py " + args.command}]
    return {"architecture": ARCH, "os": "linux", "config": config, "history": history,
            "rootfs": {"type": "layers", "diff_ids": diff_ids}}


def write_image(out, name, blobs, config, layer_descriptors):
    """blobs: digest -> (path or (tarfile, member)); writes the OCI layout tar."""
    config_bytes = json.dumps(config, sort_keys=True).encode()
    config_digest = "sha256:" + hashlib.sha256(config_bytes).hexdigest()
    manifest = {"schemaVersion": 2, "mediaType": MANIFEST,
                "config": {"mediaType": CONFIG, "digest": config_digest, "size": len(config_bytes)},
                "layers": layer_descriptors}
    manifest_bytes = json.dumps(manifest, sort_keys=True).encode()
    manifest_digest = "sha256:" + hashlib.sha256(manifest_bytes).hexdigest()
    tag = name.rsplit(":", 1)[1] if ":" in name.rsplit("/", 1)[-1] else "latest"
    index = {"schemaVersion": 2, "manifests": [{
        "mediaType": MANIFEST, "digest": manifest_digest, "size": len(manifest_bytes),
        "annotations": {"io.containerd.image.name": name, "org.opencontainers.image.ref.name": tag}}]}

    def add_bytes(tar, path, data):
        info = tarfile.TarInfo(path)
        info.size, info.mode = len(data), 0o644
        tar.addfile(info, io.BytesIO(data))

    tmp = out + ".tmp"
    with tarfile.open(tmp, "w") as tar:
        add_bytes(tar, "oci-layout", b'{"imageLayoutVersion":"1.0.0"}')
        add_bytes(tar, "index.json", json.dumps(index).encode())
        add_bytes(tar, "blobs/sha256/" + config_digest[7:], config_bytes)
        add_bytes(tar, "blobs/sha256/" + manifest_digest[7:], manifest_bytes)
        for digest, source in blobs.items():
            if isinstance(source, str):
                tar.add(source, arcname="blobs/sha256/" + digest[7:])
            else:
                base, member = source
                info = tarfile.TarInfo("blobs/sha256/" + digest[7:])
                info.size, info.mode = member.size, 0o644
                tar.addfile(info, base.extractfile(member))
    os.replace(tmp, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["rootfs", "extend"])
    parser.add_argument("source")
    parser.add_argument("name")
    parser.add_argument("out")
    parser.add_argument("--file", action="append", default=[])
    parser.add_argument("--entrypoint")
    parser.add_argument("--cmd")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--workdir")
    parser.add_argument("--user")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="oci-image-", dir=os.path.dirname(os.path.abspath(args.out)))
    try:
        layer = os.path.join(work, "layer.tar")
        base_config, blobs, descriptors, diff_ids, base_tar = {}, {}, [], [], None
        if args.command == "rootfs":
            layer_from_dir(args.source, layer)
        else:
            base_tar = tarfile.open(args.source)
            members = {m.name.lstrip("./"): m for m in base_tar.getmembers()}
            read = lambda digest: json.load(base_tar.extractfile(members["blobs/sha256/" + digest[7:]]))
            index = json.load(base_tar.extractfile(members["index.json"]))
            manifest = read(index["manifests"][0]["digest"])
            base_config = read(manifest["config"]["digest"])
            diff_ids = list(base_config["rootfs"]["diff_ids"])
            for descriptor in manifest["layers"]:
                descriptors.append(descriptor)
                blobs[descriptor["digest"]] = (base_tar, members["blobs/sha256/" + descriptor["digest"][7:]])
            layer_from_files(args.file, layer)
        digest, size = digest_of(layer)
        blobs[digest] = layer
        descriptors.append({"mediaType": LAYER, "digest": digest, "size": size})
        diff_ids.append(digest)
        write_image(args.out, args.name, blobs, image_config(base_config, args, diff_ids), descriptors)
        if base_tar:
            base_tar.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
