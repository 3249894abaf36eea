"""Unpacks a wheel (a zip file) into a folder, keeping the files' Unix permissions (zipfile drops them).

    python3 unpack-wheel.py <wheel> <folder>
"""
import os
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        mode = (info.external_attr >> 16) & 0o777
        if mode:
            os.chmod(path, mode)
