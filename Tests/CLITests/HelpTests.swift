import Testing

/// The help texts, exactly (as swift-argument-parser's own tests do): a change to an option's
/// name, value or wording shows up here and is made on purpose, in both places. COLUMNS=80
/// fixes the wrapping.
@Suite struct HelpTests {
    @Test func rootHelp() throws {
        let run = try Citrine.run(["--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == Self.root)
    }

    @Test func playHelp() throws {
        let run = try Citrine.run(["play", "--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == Self.play)
    }

    @Test func renderHelp() throws {
        let run = try Citrine.run(["render", "--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == Self.render)
    }

    @Test func concatHelp() throws {
        let run = try Citrine.run(["concat", "--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == Self.concat)
    }

    @Test func galleryHelp() throws {
        let run = try Citrine.run(["gallery", "--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.output == Self.gallery)
    }

    static let gallery = #"""
            OVERVIEW: Render every demo (or your Lottie files) as GIF, APNG and a poster
            PNG, with an index.html to open.

            --examples adds the examples: every .swift file and .playground folder in the
            folder given (default: the Examples folder of Citrine's package, else
            ./Examples), each built and run as 'citrine render FILE.swift' runs it and
            written to examples/ in the gallery's folder. An example's leading comment is
            its description; a 'citrine render' line in it gives the --tap, --drag and
            --duration the gallery plays.

            Lottie files (.json) given are shown instead of the demos, each played from its
            first frame for its duration and written to lottie/ in the gallery's folder.
            Without them the demos are followed by the Lottie files of the Examples/Lottie
            folder of Citrine's package.

            Examples:
              citrine gallery -o site
              citrine gallery animations/*.json -o site
              citrine gallery --examples
              citrine gallery --examples MyLessons -o site --fps 30

            USAGE: citrine gallery [--output <folder>] [--scale <factor>] [--fps <rate>] [--font-dir <folder>] [--quiet] [--examples] [<file-or-folder> ...]

            ARGUMENTS:
              <file-or-folder>        Lottie .json files to show instead of the demos; with
                                      --examples, the folder of examples (default:
                                      Citrine's Examples folder).

            OPTIONS:
              -o, --output <folder>   The folder to write (created if needed; the gallery's
                                      files in it are replaced). (default: gallery)
              --scale <factor>        Pixels per point (default: 1).
              --fps <rate>            Frames per second (default: 15).
              --font-dir <folder>     Draw text only with the fonts in this folder
                                      (default: the machine's; see 'citrine info --fonts').
              -q, --quiet             No progress line on standard error.
              --examples              Also render the examples: your own code, as 'citrine
                                      render FILE.swift' does.
              --version               Show the version.
              -h, --help              Show help information.


            """#

    static let root = #"""
            OVERVIEW: Render Core Animation demos to PNG, GIF, APNG, MP4, MOV or WebM.

            With no subcommand, citrine runs 'gallery -o gallery'.

            Exit status: 0 done; 1 bad input (a value, a demo, an output that cannot be
            written); 2 bad usage (an unknown option, a missing value, options that cannot
            go together); 3 a missing tool (ffmpeg for MP4, MOV, WebM; an X11 display for
            play); 130 or 143 interrupted by SIGINT or SIGTERM (nothing written).

            USAGE: citrine <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              render                  Render a demo, your own code or a Lottie file to a
                                      PNG still, a PNG sequence, GIF, APNG, MP4, MOV or
                                      WebM.
              concat                  Join the MP4, MOV or WebM slices of a render made
                                      with --shard into one video.
              demos                   List the demos: name, size in points, span in
                                      seconds, seed and summary.
              info                    Print a demo's layer tree and its animations with
                                      their timing, a Lottie file's summary, or the fonts
                                      text is drawn with.
              gallery (default)       Render every demo (or your Lottie files) as GIF, APNG
                                      and a poster PNG, with an index.html to open.
              play                    Open a demo, your own code or a Lottie file live in a
                                      window (X11): space pauses, arrows step, q quits.

              See 'citrine help <subcommand>' for detailed help.

            """#

    static let render = #"""
            OVERVIEW: Render a demo, your own code or a Lottie file to a PNG still, a PNG
            sequence, GIF, APNG, MP4, MOV or WebM.

            The animation runs from --start for the demo's span (see 'citrine demos')
            unless --duration, --end or --frames says otherwise; frames are sampled at
            start + i/fps, and the end itself is left out (a loop plays seamlessly) unless
            --include-end. MP4, MOV and WebM are written through ffmpeg. The output is
            written to a hidden temporary file and renamed into place when complete.

            Your own code: a .swift file or a .playground folder is compiled with the
            installed Swift toolchain against Citrine's modules (import UIKit, QuartzCore,
            CoreGraphics, CoreText, PlaygroundSupport) and run. The build is kept by
            content in $XDG_CACHE_HOME/citrine/user-code (default
            ~/.cache/citrine/user-code), so an unchanged file starts at once. Shown, in
            this order: what the code sets as PlaygroundPage.current.liveView (a view, a
            view controller or a layer), else the top-level variable --view names; it is
            rendered from media time 0, for its animations' span (a repeating one through
            one cycle).

            A Lottie file (Bodymovin .json, as After Effects exports it) is imported onto
            Core Animation layers and keyframe animations and rendered from its first frame
            for its duration, sampled at --fps whatever its own frame rate; what it uses
            that is not imported yet is warned about on standard error (see 'citrine info
            anim.json').

            Several inputs go to --out-dir, each named after its input with the format's
            extension (anim.json → anim.gif; a PNG sequence anim-%04d.png), several at a
            time on the --threads. An input that fails is named on standard error and the
            others are still rendered; the exit status is then the first failure's.

            --shard I/N renders slice I of N, so that N processes or machines share the
            work: of several inputs those at positions I, I+N, I+2N … (from 0); of one
            input its frames from I×F/N to (I+1)×F/N (F frames in all, rounded down), drawn
            as one run draws them. A PNG sequence's slices write the frames' own numbers;
            video slices (with --out-dir, anim.part-1-of-4.mp4) are joined with 'citrine
            concat'.

            Examples:
              citrine render falling-petal -o petal.gif
              citrine render MyView.swift -o my-view.gif
              citrine render anim.json -o anim.mp4 --fps 60
              citrine render fold-image -o fold.mp4 --duration 4 --width 640
              citrine render ball-loader --time 0.75 -o ball.png
              citrine render volume-bars -o frames/%04d.png --fps 60
              citrine render reflection --format apng -o - > reflection.apng
              citrine render sticky-bubble -o drag.gif --drag 100,120:160,120@0.2+0.5
              citrine render *.json --out-dir out --format mp4
              citrine render long.json --shard 1/4 --out-dir parts --format mp4

            --tap and --drag replace the demo's own scripted input: points in the demo's
            coordinates (origin top-left, y down), times in seconds from the start of the
            demo, delivered as pointer events through the same path as the mouse in
            'citrine play'. With them the default length is the last input's time plus the
            demo's span.

            USAGE: citrine render <demo-or-file> -o <file> [<options>]
                   citrine render <demo-or-file> ... --out-dir <folder> [<options>]

            ARGUMENTS:
              <demo-or-file>          The demo to render (see 'citrine demos'), your own
                                      .swift file or .playground folder, or a Lottie .json
                                      file; several with --out-dir.

            OUTPUT:
              -o, --output <file>     out.png, frames/%04d.png, out.gif, out.apng, out.mp4,
                                      out.mov, out.webm, or - for standard output.
              --out-dir <folder>      Write each input to this folder (created if needed),
                                      named after it: anim.json → anim.gif.
              --format <format>       png, png-sequence, gif, apng, mp4, mov or webm
                                      (default: from the file name; needed with -o -; gif
                                      with --out-dir).
              --shard <I/N>           Render only slice I (from 0) of N: of several inputs
                                      every Nth from the Ith, of one its frames I×F/N to
                                      (I+1)×F/N (join the videos with 'citrine concat').
              -y, --overwrite         Replace an existing output file (refused otherwise).
              -q, --quiet             No progress line on standard error.
              --threads <count>       Threads that render and encode, in all (default: the
                                      number of processors).

            TIME:
              --fps <rate>            Frames per second: 30 (default), 29.97, 30000/1001 …
              --start <seconds>       Media time of the first frame (default: 0). Seconds:
                                      1.5, 1.5s or 250ms.
              --duration <seconds>    Length of the animation (default: the demo's span).
              --end <seconds>         Media time at which the animation ends (instead of
                                      --duration).
              --frames <count>        Number of frames (instead of --duration).
              --include-end           Add a last frame at the end time itself.
              --time <seconds>        Render one still (a PNG) at this media time.
              --frame <n>             Render one still (a PNG): frame N of the timeline,
                                      from 0.

            SIZE AND LOOK:
              --scale <factor>        Pixels per point (default: 2).
              --width <pixels>        Width in pixels; the height keeps the aspect.
              --height <pixels>       Height in pixels; the width keeps the aspect.
              --size <WxH>            Fit inside WxH pixels, keeping the aspect.
              --background <colour>   transparent, #RRGGBB or #RRGGBBAA (default:
                                      transparent; white for MP4).
              --loop <n>              GIF and APNG: times to play, 0 = forever (default: 0).
              --dither <mode>         GIF: none, ordered or diffusion (default: ordered).
              --png-compression <level>
                                      PNG and APNG: zlib level, 0 (fastest, largest) to 9
                                      (default: 6).
              --font-dir <folder>     Draw text only with the fonts in this folder
                                      (default: the machine's; see 'citrine info --fonts').

            SCRIPTED INPUT:
              --tap <X,Y@T>           Tap at point X,Y (points, origin top-left) at T
                                      seconds: down, up 0.05 s later. Repeatable.
              --drag <X1,Y1:X2,Y2@T+D>
                                      Drag from X1,Y1 to X2,Y2 starting at T seconds,
                                      lasting D seconds (a move every 1/60 s). Repeatable.

            OPTIONS:
              --view <name>           Your own code: a top-level variable (a view, view
                                      controller or layer) to show when the page sets no
                                      PlaygroundPage.current.liveView.
              --version               Show the version.
              -h, --help              Show help information.


            """#

    static let play = #"""
            OVERVIEW: Open a demo, your own code or a Lottie file live in a window (X11):
            space pauses, arrows step, q quits.

            --script plays the demo's own scripted input (the one 'citrine render' exports)
            into the window; --tap and --drag play the input they give instead: points in
            the demo's coordinates (origin top-left, y down), times in seconds from the
            window's start, delivered as pointer events through the same path as the mouse.

            Two fingers with a mouse: press with Alt held and a second touch follows the
            pointer mirrored about the window's centre, as the iOS Simulator's Option key
            does (for pinches and rotations).

            Your own code (a .swift file or a .playground folder) is compiled and run as
            'citrine render --help' describes, and its live view shown. A Lottie .json file
            plays in a loop.

            Examples:
              citrine play sticky-bubble --script
              citrine play MyView.swift
              citrine play anim.json
              citrine play sticky-bubble --drag 100,120:160,120@0.5+0.5 --tap 100,120@2

            USAGE: citrine play <demo-or-file> [--view <name>] [--scale <factor>] [--font-dir <folder>] [--script] [--tap <X,Y@T> ...] [--drag <X1,Y1:X2,Y2@T+D> ...]

            ARGUMENTS:
              <demo-or-file>          The demo to play (see 'citrine demos'), your own
                                      .swift file or .playground folder, or a Lottie .json
                                      file.

            SCRIPTED INPUT:
              --tap <X,Y@T>           Tap at point X,Y (points, origin top-left) at T
                                      seconds: down, up 0.05 s later. Repeatable.
              --drag <X1,Y1:X2,Y2@T+D>
                                      Drag from X1,Y1 to X2,Y2 starting at T seconds,
                                      lasting D seconds (a move every 1/60 s). Repeatable.

            OPTIONS:
              --view <name>           Your own code: a top-level variable (a view, view
                                      controller or layer) to show when the page sets no
                                      PlaygroundPage.current.liveView.
              --scale <factor>        Pixels per point (default: 2).
              --font-dir <folder>     Draw text only with the fonts in this folder
                                      (default: the machine's; see 'citrine info --fonts').
              --script                Play the demo's own scripted input into the window.
              --version               Show the version.
              -h, --help              Show help information.


            """#

    static let concat = #"""
            OVERVIEW: Join the MP4, MOV or WebM slices of a render made with --shard into
            one video.

            The parts are joined in the order given, through ffmpeg's concat demuxer
            without encoding the frames again; all of them and the output have the same
            extension. Each part starts on a key frame, so the video is not one run's byte
            for byte: it has one run's frame times, and its frames are one run's exactly
            for MOV (ProRes codes each frame alone), within the encoder's loss for MP4 and
            WebM. A PNG sequence needs no joining: its slices write the frames' own
            numbers.

            Examples:
              citrine render long.json --shard 0/2 -o part-0.mp4
              citrine render long.json --shard 1/2 -o part-1.mp4
              citrine concat part-0.mp4 part-1.mp4 -o long.mp4

            USAGE: citrine concat <part> ... -o <file> [<options>]

            ARGUMENTS:
              <part>                  The parts, in order.

            OPTIONS:
              -o, --output <file>     The video to write: .mp4, .mov or .webm.
              -y, --overwrite         Replace an existing output file (refused otherwise).
              --version               Show the version.
              -h, --help              Show help information.


            """#
}
