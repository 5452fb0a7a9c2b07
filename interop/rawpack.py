#!/usr/bin/env python3
"""Raw Pack v1 (spec.md section 2), written from docs/spec.md alone, standard library only.

    python3 rawpack.py write [--blob-set S] [--blob-id N] [--created-by C] OUT FILE...
        write a pack with one entry per FILE; print "index reference file" per entry
    python3 rawpack.py read PACK OUTDIR
        validate the whole pack, extract entry i to OUTDIR/i.bin; print "index offset length crc32c"

Identical FILE contents are stored once and shared by their entries (exact sharing).
On any fault the tool prints "PACK: problem at offset N: expected X, found Y" to stderr and
exits with status 1; bad usage exits with status 2.
"""

import argparse
import hashlib
import json
import os
import struct
import sys

MAGIC = b"BLOBPACK"
VERSION = 1
HEADER_LEN = 16
ENTRY_LEN = 24
TAIL_LEN = 32
MIN_PACK_LEN = HEADER_LEN + TAIL_LEN
FOOTER_WINDOW = 64 * 1024
CHUNK = 64 * 1024
PACK_TYPE = "raw"
PACK_VERSION = 1
FEATURES = ("blob_object_pack",)
REFERENCE_FLAG = 1 << 63
RESERVED_BITS = 0x7FFFFFFF00000000
METADATA_KEYS = ("pack_type", "pack_version", "required_features", "blob_set", "blob_id",
                 "entry_count", "payload_bytes", "created_by")


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c_update(crc, data):
    """Continues a crc32c (Castagnoli, reflected); start with 0, feed chunks in order."""
    crc ^= 0xFFFFFFFF
    table = _TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32c(data):
    return crc32c_update(0, data)


class PackError(Exception):
    def __init__(self, file, offset, problem, expected, found):
        super().__init__("%s: %s at offset %d: expected %s, found %s" % (file, problem, offset, expected, found))


def entry_reference(index):
    return REFERENCE_FLAG | index


def entry_index(reference):
    if not reference & REFERENCE_FLAG:
        raise ValueError("position %d is not an entry reference: bit 63 is clear" % reference)
    if reference & RESERVED_BITS:
        raise ValueError("entry reference 0x%016x has reserved bits 62..32 set" % reference)
    return reference & 0xFFFFFFFF


# ---- writing ------------------------------------------------------------------------------

def canonical_metadata(blob_set, blob_id, entry_count, payload_bytes, created_by):
    """Keys in the contract's order, no whitespace; strings are limited so only \\" and \\\\ need escaping."""
    def string(text):
        if not text or any(not 0x20 <= ord(ch) <= 0x7E for ch in text):
            raise ValueError("metadata strings must be printable ASCII, found %r" % text)
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    values = (string(PACK_TYPE), str(PACK_VERSION), "[" + ",".join(string(f) for f in FEATURES) + "]",
              string(blob_set), str(blob_id), str(entry_count), str(payload_bytes), string(created_by))
    return ("{" + ",".join('"%s":%s' % kv for kv in zip(METADATA_KEYS, values)) + "}").encode("utf-8")


def write_pack(out_path, files, blob_set, blob_id, created_by):
    """Writes one entry per file, streaming; returns the entry references in file order."""
    if not 1 <= blob_id <= 0xFFFFFFFF:
        raise ValueError("blob_id must be in [1, 2^32-1], found %d" % blob_id)
    rows = []
    stored = {}  # sha256 of content -> (offset, length, crc32c), so equal contents are shared
    with open(out_path, "wb") as out:
        out.write(MAGIC + struct.pack("<HHI", VERSION, 0, 0))
        position = HEADER_LEN
        for path in files:
            digest, crc, length = hashlib.sha256(), 0, 0
            with open(path, "rb") as f:
                for chunk in iter(lambda: f.read(CHUNK), b""):
                    out.write(chunk)
                    digest.update(chunk)
                    crc = crc32c_update(crc, chunk)
                    length += len(chunk)
            key = digest.digest()
            if key in stored:
                out.seek(position)  # already in the pack: take back the copy just written
                out.truncate()
            else:
                stored[key] = (position, length, crc)
                position += length
            rows.append(stored[key])
        footer_start = position
        table = b"".join(struct.pack("<QQII", o, n, c, 0) for o, n, c in rows)
        metadata = canonical_metadata(blob_set, blob_id, len(rows), sum(n for _, n, _ in rows), created_by)
        footer_crc = crc32c(table + metadata)
        out.write(table + metadata)
        out.write(struct.pack("<QIIIHH", footer_start, len(rows), len(metadata), footer_crc, VERSION, 0) + MAGIC)
    return [entry_reference(i) for i in range(len(rows))]


# ---- reading ------------------------------------------------------------------------------

def quote(raw):
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F else "\\x%02x" % b for b in raw) + '"'


def describe(value):
    if isinstance(value, str):
        return quote(value.encode("utf-8"))
    if value is None:
        return "null"
    return json.dumps(value)


def is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool)


def read_exact(f, offset, length):
    f.seek(offset)
    data = f.read(length)
    if len(data) != length:
        raise OSError("wanted %d bytes at offset %d, got %d" % (length, offset, len(data)))
    return data


def check_header(name, header):
    if header[0:8] != MAGIC:
        raise PackError(name, 0, "bad header magic", quote(MAGIC), quote(header[0:8]))
    version, flags, reserved = struct.unpack_from("<HHI", header, 8)
    if version != VERSION:
        raise PackError(name, 8, "unknown header version", "version %d" % VERSION, "version %d" % version)
    if flags != 0:
        raise PackError(name, 10, "unknown header flags", "flags 0", "flags 0x%x" % flags)
    if reserved != 0:
        raise PackError(name, 12, "non-zero reserved header field", "0", "0x%x" % reserved)


def read_footer(name, f, file_len):
    """Plans from the tail: one read of the last min(file_len, 64 KiB) bytes, one more if needed."""
    if file_len < MIN_PACK_LEN:
        raise PackError(name, 0, "truncated pack", "at least %d bytes" % MIN_PACK_LEN, "%d bytes" % file_len)
    window = min(file_len, FOOTER_WINDOW)
    window_start = file_len - window
    last = read_exact(f, window_start, window)
    tail_start = file_len - TAIL_LEN
    tail = last[tail_start - window_start:]
    if tail[24:32] != MAGIC:
        raise PackError(name, tail_start + 24, "bad tail magic (a truncated or unfinished pack ends without it)",
                        quote(MAGIC), quote(tail[24:32]))
    footer_start, entry_count, metadata_len, footer_crc, version, flags = struct.unpack_from("<QIIIHH", tail)
    if version != VERSION:
        raise PackError(name, tail_start + 20, "unknown tail version", "version %d" % VERSION,
                        "version %d" % version)
    if flags != 0:
        raise PackError(name, tail_start + 22, "unknown tail flags", "flags 0", "flags 0x%x" % flags)
    footer_end = footer_start + ENTRY_LEN * entry_count + metadata_len
    if footer_start < HEADER_LEN or footer_end != tail_start:
        raise PackError(name, tail_start, "footer size mismatch",
                        "footer_start + 24*entry_count + metadata_length == %d" % tail_start,
                        "%d + 24*%d + %d == %d" % (footer_start, entry_count, metadata_len, footer_end))
    if footer_start >= window_start:
        footer = last[footer_start - window_start:tail_start - window_start]
    else:
        footer = read_exact(f, footer_start, window_start - footer_start) + last[:tail_start - window_start]
    found_crc = crc32c(footer)
    if found_crc != footer_crc:
        raise PackError(name, footer_start, "footer crc32c mismatch", "crc32c %d" % footer_crc,
                        "crc32c %d" % found_crc)

    metadata_start = footer_start + ENTRY_LEN * entry_count
    metadata = parse_metadata(name, metadata_start, footer[ENTRY_LEN * entry_count:])
    check_metadata(name, metadata_start, metadata, entry_count)

    rows = []
    for i in range(entry_count):
        at = i * ENTRY_LEN
        offset, length, crc, entry_flags = struct.unpack_from("<QQII", footer, at)
        if entry_flags != 0:
            raise PackError(name, footer_start + at + 20, "unknown flags in entry %d" % i, "flags 0",
                            "flags 0x%x" % entry_flags)
        if offset < HEADER_LEN or offset + length > footer_start:
            raise PackError(name, footer_start + at, "entry %d out of bounds" % i,
                            "a range inside the payload [%d, %d)" % (HEADER_LEN, footer_start),
                            "offset %d length %d" % (offset, length))
        rows.append((offset, length, crc))
    payload_bytes = metadata.get("payload_bytes")
    total = sum(n for _, n, _ in rows)
    if payload_bytes is not None and not (is_integer(payload_bytes) and payload_bytes == total):
        raise PackError(name, metadata_start, "metadata payload_bytes disagrees with the entry table",
                        "%d (the sum of entry lengths)" % total, describe(payload_bytes))
    return footer_start, rows, metadata


def parse_metadata(name, at, raw):
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise PackError(name, at, "bad metadata", "UTF-8 text", "bytes that are not UTF-8 (%s)" % e)

    def no_duplicates(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise ValueError("duplicate key %r" % key)
            seen[key] = value
        return seen

    def no_constants(token):
        raise ValueError("%s is not JSON" % token)

    try:
        value = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constants)
    except ValueError as e:
        raise PackError(name, at, "bad metadata", "a UTF-8 JSON object", "unparseable JSON (%s)" % e)
    if not isinstance(value, dict):
        raise PackError(name, at, "bad metadata", "a JSON object", describe(value))
    return value


def check_metadata(name, at, metadata, entry_count):
    pack_type = metadata.get("pack_type")
    if pack_type != PACK_TYPE:
        raise PackError(name, at, "unknown pack_type", quote(PACK_TYPE.encode()), describe(pack_type))
    pack_version = metadata.get("pack_version")
    if not (is_integer(pack_version) and pack_version == PACK_VERSION):
        raise PackError(name, at, "unknown pack_version", str(PACK_VERSION), describe(pack_version))
    features = metadata.get("required_features")
    if not isinstance(features, list):
        raise PackError(name, at, "bad required_features", "a JSON array of strings", describe(features))
    for feature in features:
        if not isinstance(feature, str):
            raise PackError(name, at, "bad required_features", "a JSON array of strings", describe(feature))
        if feature not in FEATURES:
            raise PackError(name, at, "unknown required feature",
                            "one of the features this reader supports [%s]" % ", ".join(sorted(FEATURES)),
                            describe(feature))
    declared = metadata.get("entry_count")
    if declared is not None and not (is_integer(declared) and declared == entry_count):
        raise PackError(name, at, "metadata entry_count disagrees with the tail", str(entry_count),
                        describe(declared))


def read_pack(name, out_dir):
    """Validates the whole pack and writes entry i to out_dir/i.bin; returns the entry rows."""
    with open(name, "rb") as f:
        file_len = os.fstat(f.fileno()).st_size
        if file_len >= HEADER_LEN:
            check_header(name, read_exact(f, 0, HEADER_LEN))
        _, rows, _ = read_footer(name, f, file_len)
        os.makedirs(out_dir, exist_ok=True)
        for i, (offset, length, expected) in enumerate(rows):
            crc = 0
            target = os.path.join(out_dir, "%d.bin" % i)
            with open(target + ".part", "wb") as out:
                done = 0
                while done < length:
                    chunk = read_exact(f, offset + done, min(CHUNK, length - done))
                    crc = crc32c_update(crc, chunk)
                    out.write(chunk)
                    done += len(chunk)
            if crc != expected:
                os.remove(target + ".part")  # never leave bytes that failed their crc looking extracted
                raise PackError(name, offset, "payload crc32c mismatch in entry %d" % i, "crc32c %d" % expected,
                                "crc32c %d" % crc)
            os.replace(target + ".part", target)
    return rows


def main(argv):
    parser = argparse.ArgumentParser(prog="rawpack.py", description="Raw Pack v1 writer and reader")
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("write", help="write a pack, one entry per FILE")
    write.add_argument("--blob-set", default="interop")
    write.add_argument("--blob-id", type=int, default=1)
    write.add_argument("--created-by", default="rawpack.py")
    write.add_argument("out")
    write.add_argument("files", nargs="+")
    read = commands.add_parser("read", help="validate a pack and extract its entries")
    read.add_argument("pack")
    read.add_argument("out_dir")
    args = parser.parse_args(argv)

    if args.command == "write":
        try:
            references = write_pack(args.out, args.files, args.blob_set, args.blob_id, args.created_by)
        except (OSError, ValueError) as e:
            print("%s: cannot write: %s" % (args.out, e), file=sys.stderr)
            return 1
        for i, reference in enumerate(references):
            print("%d %d %s" % (i, reference, args.files[i]))
        return 0
    try:
        rows = read_pack(args.pack, args.out_dir)
    except PackError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print("%s: cannot read: %s" % (args.pack, e), file=sys.stderr)
        return 1
    for i, (offset, length, crc) in enumerate(rows):
        print("%d %d %d %d" % (i, offset, length, crc))
    return 0


if __name__ == "__main__":
    assert crc32c(b"123456789") == 0xE3069283, "crc32c self-test failed"
    sys.exit(main(sys.argv[1:]))
