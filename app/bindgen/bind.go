//go:build bindings

package main

import (
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// bind has Wails write the bindings of services; built with the bindings tag, wails.Run
// generates them into the working directory's project and returns.
func bind(services []any) error {
	return wails.Run(&options.App{Bind: services, Logger: logger.NewDefaultLogger(), LogLevel: logger.ERROR})
}
