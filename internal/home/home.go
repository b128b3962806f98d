// Package home owns hookside's on-disk layout (the files under the hookside
// home directory) so every package computes the same paths:
//
//	<home>/config.json                                  user configuration
//	<home>/security/workspace-hook-trust-v1.json (+ .lock)   trust file
//	  (or <storage.dir>/security/… when the user config sets storage.dir)
//	<home>/hookside.db                                  V2 database (SQLite)
//
// The home is $HOOKSIDE_HOME, else ~/.hookside (on Windows
// %LOCALAPPDATA%\hookside: local to the machine, never roamed or synced);
// --home and initialize.homeDir override it.
package home

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Names of the layout.
const (
	// envHome names the environment variable that sets the home.
	envHome = "HOOKSIDE_HOME"
	// dirName is the home's name under the user's home directory.
	dirName = ".hookside"
	// windowsDirName is the home's name under %LOCALAPPDATA% on Windows.
	windowsDirName = "hookside"
	// configFile is the user configuration file inside the home.
	configFile = "config.json"
	// securityDirName is the trust file's directory inside the home (or
	// inside storage.dir).
	securityDirName = "security"
	// dbFile is the V2 database file inside the home.
	dbFile = "hookside.db"
)

// Default returns $HOOKSIDE_HOME, else the platform's default (Unix:
// ~/.hookside; Windows: %LOCALAPPDATA%\hookside, falling back to
// ~/.hookside when LOCALAPPDATA is unset), else ".hookside" when the
// user's home directory is unknown.
func Default() string {
	if h := os.Getenv(envHome); h != "" {
		return h
	}
	return Builtin()
}

// Builtin returns the platform's default home, Default without
// $HOOKSIDE_HOME: the home a command line pasted into another shell uses
// when it names no --home.
func Builtin() string { return defaultFor(runtime.GOOS, os.Getenv) }

// defaultFor is Default without $HOOKSIDE_HOME, for goos with environment
// getenv.
func defaultFor(goos string, getenv func(string) string) string {
	if goos == "windows" {
		if l := getenv("LOCALAPPDATA"); l != "" && filepath.IsAbs(l) {
			return filepath.Join(l, windowsDirName)
		}
	}
	if u, err := os.UserHomeDir(); err == nil && u != "" {
		return filepath.Join(u, dirName)
	}
	return dirName
}

// ConfigPath is <dir>/config.json, the user configuration of home dir.
func ConfigPath(dir string) string { return filepath.Join(dir, configFile) }

// DBPath is <dir>/hookside.db, the V2 database of home dir.
func DBPath(dir string) string { return filepath.Join(dir, dbFile) }

// SecurityDir returns the directory of the trust file: <dir>/security, or
// <storageDir>/security when the user config sets storage.dir (a relative
// storage.dir, or one starting with "~/", is resolved against the user's
// home directory, never the working directory, falling back to dir when
// that is unknown; a project file can never set it —
// lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查").
func SecurityDir(dir, storageDir string) string {
	if storageDir == "" {
		return filepath.Join(dir, securityDirName)
	}
	if strings.HasPrefix(storageDir, "~/") {
		storageDir = storageDir[2:]
	}
	if !filepath.IsAbs(storageDir) {
		if u, err := os.UserHomeDir(); err == nil {
			storageDir = filepath.Join(u, storageDir)
		} else {
			storageDir = filepath.Join(dir, storageDir)
		}
	}
	return filepath.Join(storageDir, securityDirName)
}
