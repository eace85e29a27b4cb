// Command icongen draws Observatory's application icon: an observatory dome at night, its slit
// open and its telescope pointed at a star. The drawing is made of shapes described in a unit
// square, so each size is rendered directly (with supersampling for smooth edges) rather than
// scaled down from the large one.
//
// Run from the repository root (scripts/package.sh does not need to: the outputs are committed):
//
//	go run -C build/tools ./icongen -root ../..
//
// It writes build/appicon.png (1024×1024, which Wails turns into the macOS .icns), the Linux
// hicolor icons under build/linux/icons, and build/windows/icon.ico.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	build := filepath.Join(*root, "build")

	if err := writePNG(filepath.Join(build, "appicon.png"), render(1024)); err != nil {
		log.Fatal(err)
	}
	for _, size := range []int{16, 24, 32, 48, 64, 128, 256, 512} {
		dir := filepath.Join(build, "linux", "icons", "hicolor", fmt.Sprintf("%dx%d", size, size), "apps")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		if err := writePNG(filepath.Join(dir, "observatory.png"), render(size)); err != nil {
			log.Fatal(err)
		}
	}
	if err := writeICO(filepath.Join(build, "windows", "icon.ico"), []int{16, 24, 32, 48, 64, 128, 256}); err != nil {
		log.Fatal(err)
	}
}

// A shape reports whether the point (x, y) of the unit square, y pointing down, is inside it.
type shape func(x, y float64) bool

// A layer is a shape filled with a paint, which may vary across the square.
type layer struct {
	in    shape
	paint func(x, y float64) color.NRGBA
}

// flat paints one colour everywhere.
func flat(c color.NRGBA) func(x, y float64) color.NRGBA {
	return func(float64, float64) color.NRGBA { return c }
}

// mix blends a into b by t in [0, 1].
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	t = math.Max(0, math.Min(1, t))
	l := func(p, q uint8) uint8 { return uint8(math.Round(float64(p)*(1-t) + float64(q)*t)) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}

func rgb(hex uint32) color.NRGBA {
	return color.NRGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 255}
}

// roundedRect is the rectangle (x0, y0)–(x1, y1) with corners of radius r.
func roundedRect(x0, y0, x1, y1, r float64) shape {
	return func(x, y float64) bool {
		dx := math.Max(math.Max(x0+r-x, x-(x1-r)), 0)
		dy := math.Max(math.Max(y0+r-y, y-(y1-r)), 0)
		return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dx*dx+dy*dy <= r*r
	}
}

func disc(cx, cy, r float64) shape {
	return func(x, y float64) bool { return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r }
}

// capsule is the segment (ax, ay)–(bx, by) thickened by r.
func capsule(ax, ay, bx, by, r float64) shape {
	return func(x, y float64) bool {
		vx, vy := bx-ax, by-ay
		t := math.Max(0, math.Min(1, ((x-ax)*vx+(y-ay)*vy)/(vx*vx+vy*vy)))
		dx, dy := x-(ax+t*vx), y-(ay+t*vy)
		return dx*dx+dy*dy <= r*r
	}
}

// star is a four-pointed star (an astroid) centred on (cx, cy), reaching r along each axis.
func star(cx, cy, r float64) shape {
	return func(x, y float64) bool {
		return math.Sqrt(math.Abs(x-cx))+math.Sqrt(math.Abs(y-cy)) <= math.Sqrt(r)
	}
}

func and(shapes ...shape) shape {
	return func(x, y float64) bool {
		for _, s := range shapes {
			if !s(x, y) {
				return false
			}
		}
		return true
	}
}

func above(level float64) shape { return func(_, y float64) bool { return y <= level } }
func below(level float64) shape { return func(_, y float64) bool { return y >= level } }

// icon is the drawing, bottom layer first. The tile follows the macOS grid (an 824-unit
// rounded square on a 1024 canvas) so the icon sits well beside others on every system.
func icon() []layer {
	const (
		tile0, tile1 = 100.0 / 1024, 924.0 / 1024
		tileR        = 185.0 / 1024
		domeX, domeY = 0.5, 0.56 // the centre of the dome's base
		domeR        = 0.235
		groundY      = 0.77
	)
	tile := roundedRect(tile0, tile0, tile1, tile1, tileR)
	// The telescope points from the dome's centre towards the star.
	starX, starY := 0.775, 0.245
	dx, dy := starX-domeX, starY-domeY
	n := math.Hypot(dx, dy)
	dx, dy = dx/n, dy/n
	tubeEndX, tubeEndY := domeX+0.31*dx, domeY+0.31*dy
	// The slit is the band along the telescope's direction, cut into the dome.
	slit := func(x, y float64) bool {
		across := math.Abs((x-domeX)*dy - (y-domeY)*dx)
		along := (x-domeX)*dx + (y-domeY)*dy
		return across <= 0.052 && along >= -0.01
	}
	dome := and(disc(domeX, domeY, domeR), above(domeY))

	return []layer{
		{tile, func(_, y float64) color.NRGBA { return mix(rgb(0x10163a), rgb(0x33306f), (y-tile0)/(tile1-tile0)) }},
		{and(tile, star(starX, starY, 0.075)), flat(rgb(0xffe49a))},
		{and(tile, disc(starX, starY, 0.012)), flat(rgb(0xffffff))},
		{star(0.25, 0.26, 0.032), flat(rgb(0xc9d2ff))},
		{star(0.40, 0.17, 0.022), flat(rgb(0xc9d2ff))},
		{star(0.21, 0.47, 0.018), flat(rgb(0x9aa6e8))},
		{star(0.83, 0.52, 0.02), flat(rgb(0x9aa6e8))},
		// The drum the dome stands on, then the dome, shaded from the lit upper left.
		{and(tile, roundedRect(domeX-0.215, domeY-0.01, domeX+0.215, groundY+0.02, 0.01)), func(x, _ float64) color.NRGBA {
			return mix(rgb(0xd9deeb), rgb(0x9fa8c4), (x-(domeX-0.215))/0.43)
		}},
		{dome, func(x, y float64) color.NRGBA {
			return mix(rgb(0xf7f9fd), rgb(0xaab3cf), math.Hypot(x-(domeX-0.12), y-(domeY-0.17))/0.36)
		}},
		{and(dome, slit), flat(rgb(0x161b3f))},
		{capsule(domeX, domeY-0.02, tubeEndX, tubeEndY, 0.034), func(x, y float64) color.NRGBA {
			across := (x-domeX)*dy - (y-domeY)*dx // which side of the tube's axis
			return mix(rgb(0xffc857), rgb(0xd9861f), 0.5+across/0.068)
		}},
		{capsule(tubeEndX-0.012*dx, tubeEndY-0.012*dy, tubeEndX+0.004*dx, tubeEndY+0.004*dy, 0.043), flat(rgb(0xf2a93b))},
		{roundedRect(domeX-0.045, 0.64, domeX+0.045, groundY, 0.02), flat(rgb(0x2a2f5c))},
		{and(tile, below(groundY)), flat(rgb(0x0b0f2a))},
	}
}

// render draws the icon at size×size pixels, averaging a grid of samples in each pixel.
func render(size int) *image.NRGBA {
	layers := icon()
	samples := 4
	if size <= 64 {
		samples = 8
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := range size {
		for px := range size {
			var r, g, b, a float64
			for sy := range samples {
				for sx := range samples {
					x := (float64(px) + (float64(sx)+0.5)/float64(samples)) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/float64(samples)) / float64(size)
					for i := len(layers) - 1; i >= 0; i-- {
						if layers[i].in(x, y) {
							c := layers[i].paint(x, y)
							ca := float64(c.A) / 255
							r, g, b, a = r+float64(c.R)*ca, g+float64(c.G)*ca, b+float64(c.B)*ca, a+ca
							break
						}
					}
				}
			}
			if a == 0 {
				continue
			}
			n := float64(samples * samples)
			img.SetNRGBA(px, py, color.NRGBA{uint8(math.Round(r / a)), uint8(math.Round(g / a)), uint8(math.Round(b / a)), uint8(math.Round(a / n * 255))})
		}
	}
	return img
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeICO writes a Windows icon holding one PNG-compressed image per size, the format
// Windows has read since Vista.
func writeICO(path string, sizes []int) error {
	images := make([][]byte, len(sizes))
	for i, size := range sizes {
		var buf bytes.Buffer
		if err := png.Encode(&buf, render(size)); err != nil {
			return err
		}
		images[i] = buf.Bytes()
	}
	var out bytes.Buffer
	le := binary.LittleEndian
	out.Write(le.AppendUint16(nil, 0))                  // reserved
	out.Write(le.AppendUint16(nil, 1))                  // type: icon
	out.Write(le.AppendUint16(nil, uint16(len(sizes)))) // image count
	offset := 6 + 16*len(sizes)
	for i, size := range sizes {
		dim := byte(size)
		if size >= 256 {
			dim = 0 // 0 means 256
		}
		out.Write([]byte{dim, dim, 0, 0})   // width, height, no palette, reserved
		out.Write(le.AppendUint16(nil, 1))  // colour planes
		out.Write(le.AppendUint16(nil, 32)) // bits per pixel
		out.Write(le.AppendUint32(nil, uint32(len(images[i]))))
		out.Write(le.AppendUint32(nil, uint32(offset)))
		offset += len(images[i])
	}
	for _, img := range images {
		out.Write(img)
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}
