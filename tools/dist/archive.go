package main

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// entry is one file of an archive.
type entry struct {
	name string // path inside the archive, below its top directory ("x/" for a directory)
	src  string
	mode int64
	dir  bool
}

// writeArchive writes hookside-<version>-<goos>-<goarch>.tar.gz (.zip for
// Windows) with one top directory of the same name holding the binary,
// README.md, LICENSE and extra (the completions and man pages). Entries are sorted by name, timestamped with the
// commit time, owned by 0:0 without names; the gzip header carries no name
// and no time. The same inputs give the same bytes.
func writeArchive(rel release, out, goos, goarch, bin string, extra []entry) (string, error) {
	base := fmt.Sprintf("hookside-%s-%s-%s", rel.Version, goos, goarch)
	entries := append([]entry{
		{name: filepath.Base(bin), src: bin, mode: 0o755},
		{name: "LICENSE", src: filepath.Join(rel.Root, "LICENSE"), mode: 0o644},
		{name: "README.md", src: filepath.Join(rel.Root, "README.md"), mode: 0o644},
	}, extra...)
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	mtime := time.Unix(rel.Epoch, 0).UTC()
	if goos == "windows" {
		path := filepath.Join(out, base+".zip")
		return path, writeZip(path, base, entries, mtime)
	}
	path := filepath.Join(out, base+".tar.gz")
	return path, writeTarGz(path, base, entries, mtime)
}

// create writes path with fill, closing it and keeping the first error.
func create(path string, fill func(w io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = fill(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeTarGz(path, base string, entries []entry, mtime time.Time) error {
	return create(path, func(f io.Writer) error { return fillTarGz(f, base, entries, mtime) })
}

func fillTarGz(f io.Writer, base string, entries []entry, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	dir := &tar.Header{Typeflag: tar.TypeDir, Name: base + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}
	if err := tw.WriteHeader(dir); err != nil {
		return err
	}
	for _, e := range entries {
		if e.dir {
			h := &tar.Header{Typeflag: tar.TypeDir, Name: base + "/" + e.name, Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		h := &tar.Header{Typeflag: tar.TypeReg, Name: base + "/" + e.name, Mode: e.mode, Size: int64(len(b)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(path, base string, entries []entry, mtime time.Time) error {
	return create(path, func(f io.Writer) error { return fillZip(f, base, entries, mtime) })
}

func fillZip(f io.Writer, base string, entries []entry, mtime time.Time) error {
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	dh := &zip.FileHeader{Name: base + "/", Modified: mtime}
	dh.SetMode(os.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dh); err != nil {
		return err
	}
	for _, e := range entries {
		if e.dir {
			h := &zip.FileHeader{Name: base + "/" + e.name, Modified: mtime}
			h.SetMode(os.ModeDir | 0o755)
			if _, err := zw.CreateHeader(h); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: base + "/" + e.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(os.FileMode(e.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSums writes SHA256SUMS ("<hex>  <name>" lines, sorted by name) for
// the archives.
func writeSums(out string, archives []string) error {
	names := make([]string, 0, len(archives))
	for _, a := range archives {
		names = append(names, filepath.Base(a))
	}
	sort.Strings(names)
	var sb strings.Builder
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(&sb, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(sb.String()), 0o644)
}
