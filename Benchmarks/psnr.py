#!/usr/bin/env python3
"""PSNR of animated GIF/APNG files against the raw frames they were made from (issue 13's
export benchmark). Each displayed frame of the file, composited by Pillow, is matched to the
source frames whose midpoints fall within its display interval (durations accumulated in
milliseconds), so encoders that merge identical frames are compared fairly. PSNR over RGB of
the mean squared error over all source frames.

    python psnr.py frames.rgba WIDTH HEIGHT FPS file.gif [file2.gif ...]   (needs Pillow, numpy)
"""
import sys
import numpy as np
from PIL import Image, ImageSequence

raw, width, height, fps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
source = np.fromfile(raw, dtype=np.uint8).reshape(-1, height, width, 4)[..., :3].astype(np.float64)
for path in sys.argv[5:]:
    im = Image.open(path)
    shown, t = [], 0.0
    for frame in ImageSequence.Iterator(im):
        rgb = np.asarray(frame.convert("RGB"), dtype=np.float64)
        duration = float(frame.info.get("duration", 0) or 0)
        shown.append((t, t + duration, rgb))
        t += duration
    errors, k = [], 0
    for i in range(len(source)):
        start = (i + 0.5) * 1000.0 / fps   # the frame's midpoint: centisecond delays shift starts by up to 5 ms
        while k + 1 < len(shown) and shown[k][1] <= start + 1e-6:
            k += 1
        errors.append(np.mean((source[i] - shown[k][2]) ** 2))
    mse = float(np.mean(errors))
    psnr = float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)
    print(f"{path}\tframes {len(shown)}\tPSNR {psnr:.2f} dB")
