package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDockerfileBuilds builds the image when a Docker engine answers; CI and
// most developer machines have none, so it is skipped there with a message.
func TestDockerfileBuilds(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("docker is not installed: the Dockerfile is not built")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		t.Skipf("no Docker engine answers (%v: %s): the Dockerfile is not built", err, strings.TrimSpace(string(out)))
	}
	ctx, cancel = context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	tag := "storefront-test:" + time.Now().UTC().Format("20060102150405")
	out, err := exec.CommandContext(ctx, "docker", "build", "-t", tag, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	defer exec.Command("docker", "image", "rm", "-f", tag).Run()
	out, err = exec.CommandContext(ctx, "docker", "run", "--rm", tag, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "storefront v") {
		t.Fatalf("docker run %s version: %v: %s", tag, err, out)
	}
}

// TestDockerfileShape checks what the image promises without building it:
// multi-stage, static binary, non-root distroless, a data volume, a healthcheck.
func TestDockerfileShape(t *testing.T) {
	raw, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(raw)
	for _, want := range []string{"AS build", "CGO_ENABLED=0", "FROM gcr.io/distroless/static", "USER 65532", `VOLUME ["/data"]`,
		"HEALTHCHECK", `"healthcheck"`, "STOREFRONT_DATA_DIR=/data", "-X main.version="} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}

// TestSystemdUnit runs systemd-analyze verify on deploy/storefront.service
// when it is installed (the ExecStart binary is pointed at a built one).
func TestSystemdUnit(t *testing.T) {
	raw, err := os.ReadFile("deploy/storefront.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := string(raw)
	for _, want := range []string{"User=storefront", "EnvironmentFile=", "NoNewPrivileges=true", "ProtectSystem=strict", "StateDirectory=storefront", "ExecStart=/usr/local/bin/storefront serve"} {
		if !strings.Contains(unit, want) {
			t.Errorf("unit lacks %q", want)
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed: the unit is not verified")
	}
	dir := t.TempDir()
	bin, err := os.Executable() // any executable file will do for verify
	if err != nil {
		t.Fatal(err)
	}
	unit = strings.ReplaceAll(unit, "/usr/local/bin/storefront", bin)
	path := filepath.Join(dir, "storefront.service")
	if err := os.WriteFile(path, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, analyze, "verify", "--man=no", path).CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
	// Lines about the machine (no systemd running in a container) are not the unit's fault.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "storefront.service") && !strings.Contains(line, "not loaded") {
			t.Errorf("systemd-analyze: %s", line)
		}
	}
}

// TestSystemdInstallSteps follows the unit's documented install steps in a
// temporary root (paths under /etc, /usr/local/bin and /etc/systemd moved
// into it) and then reads the config as the service user would, with
// setpriv: the steps must leave a config the service can read. It needs
// root, useradd and setpriv (CI has them); elsewhere it is skipped.
func TestSystemdInstallSteps(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: the install steps are not followed")
	}
	for _, tool := range []string{"setpriv", "useradd", "install"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	raw, err := os.ReadFile("deploy/storefront.service")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.MkdirTemp("", "storefront-deploy-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil { // the service user walks into it
		t.Fatal(err)
	}
	for _, d := range []string{"etc/systemd/system", "usr/local/bin", "bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, "bin", "storefront")
	if out, err := exec.Command("cp", buildBinary(t), bin).CombinedOutput(); err != nil {
		t.Fatalf("copy the binary: %v\n%s", err, out)
	}
	moved := strings.NewReplacer(" /etc/", " "+root+"/etc/", " /usr/local/bin/", " "+root+"/usr/local/bin/", " 0755 storefront", " 0755 "+bin)
	steps := 0
	for _, line := range strings.Split(string(raw), "\n") {
		cmd, ok := strings.CutPrefix(line, "#   ")
		if !ok || strings.HasPrefix(cmd, "systemctl") {
			continue
		}
		if strings.HasPrefix(cmd, "useradd") {
			if exec.Command("id", "storefront").Run() == nil {
				continue // made by an earlier run
			}
		} else {
			cmd = moved.Replace(cmd)
		}
		if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
			t.Fatalf("install step %q: %v\n%s", cmd, err, out)
		}
		steps++
	}
	if steps < 5 {
		t.Fatalf("found %d install steps in the unit's comment", steps)
	}
	// The service reads its config as user and group storefront.
	out, _ := exec.Command("setpriv", "--reuid=storefront", "--regid=storefront", "--init-groups",
		filepath.Join(root, "usr/local/bin/storefront"), "healthcheck", "--config", filepath.Join(root, "etc/storefront/storefront.yaml")).CombinedOutput()
	if strings.Contains(string(out), "storefront: config:") || !strings.Contains(string(out), "healthz") {
		t.Fatalf("the service user cannot load the installed config:\n%s", out)
	}
	// ... and cannot read the secrets file, which systemd reads as root.
	if err := exec.Command("setpriv", "--reuid=storefront", "--regid=storefront", "--init-groups", "cat", filepath.Join(root, "etc/storefront/storefront.env")).Run(); err == nil {
		t.Fatal("the service user can read the env file of secrets")
	}
}
