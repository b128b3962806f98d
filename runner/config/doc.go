// Package config turns every hook configuration source (user config file,
// workspace files, plugin hooks/hooks.json, internal hooks) into one ordered
// list of hook specs, per lifecycle-hooks-and-workspace-trust.zh.txt
// §"配置格式与默认值" and §"插件钩子与工作区钩子".
package config
