package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// dashboardFiles are the web dashboard: plain HTML, CSS and JavaScript
// that poll the REST API (no build step).
//
//go:embed dashboard
var dashboardFiles embed.FS

// routeDashboard serves the dashboard at / and its files under /web/.
func (s *Server) routeDashboard() {
	files, err := fs.Sub(dashboardFiles, "dashboard")
	if err != nil {
		panic(err) // the embedded directory is part of the build
	}
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, files, "index.html")
	})
	static := http.StripPrefix("/web/", http.FileServerFS(files))
	s.mux.Handle("GET /web/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		static.ServeHTTP(w, r)
	}))
}
