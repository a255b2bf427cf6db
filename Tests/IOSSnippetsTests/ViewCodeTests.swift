import Foundation
import QuartzCore
import Testing
import UIKit

extension SnippetSuite {
    /// Snippets/ViewCode.swift: the view code around indicators behaves as Apple documents
    /// (insets, intrinsic sizes, sizeToFit, controls, view controllers, semantic colours).
    @Suite struct ViewCodeTests {
        static func rgba(_ color: UIColor?) -> [Int] {
            var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
            _ = color?.getRed(&r, green: &g, blue: &b, alpha: &a)
            return [r, g, b].map { Int(($0 * 255).rounded()) } + [Int((a * 100).rounded())]
        }

        /// 100 × 60 less 5 on every side is 90 × 50; its square is 50 × 50 about the centre.
        /// Start shows the view and builds the dots; a bounds change while running rebuilds them;
        /// stop hides it and removes them.
        @Test func indicatorHostInsetsStartsAndStops() throws {
            CAMediaClock.setManualTime(0)
            let host = IndicatorHostView(frame: CGRect(x: 0, y: 0, width: 100, height: 60), padding: 5)
            #expect(host.isHidden && host.animationRect == CGRect(x: 25, y: 5, width: 50, height: 50))
            #expect(host.intrinsicContentSize == CGSize(width: 100, height: 60))
            host.startAnimating()
            #expect(!host.isHidden && host.layer.sublayers?.count == 1)
            #expect(host.layer.sublayers?.first?.sublayers?.count == 8 && host.setUpCount == 1)
            host.bounds = CGRect(x: 0, y: 0, width: 60, height: 100)
            #expect(host.setUpCount == 2 && host.layer.sublayers?.count == 1)
            #expect(host.layer.sublayers?.first?.frame == CGRect(x: 5, y: 25, width: 50, height: 50))
            host.stopAnimating()
            #expect(host.isHidden && (host.layer.sublayers ?? []).isEmpty)
            CATransaction.flush()
        }

        /// `boundingRect(with:options:context:)` of one line is its `size()`; the badge is that,
        /// rounded up, plus 20 × 8, with round ends after layout.
        @Test func pillBadgeSizesToItsText() {
            let badge = PillBadgeView(frame: .zero)
            badge.text = "NEW 12"
            badge.sizeToFit()
            let text = NSAttributedString(string: "NEW 12", attributes: [.font: UIFont.boldSystemFont(ofSize: 13)]).size()
            #expect(badge.bounds.size == CGSize(width: ceil(text.width) + 20, height: ceil(text.height) + 8))
            badge.layoutIfNeeded()
            #expect(badge.layer.cornerRadius == badge.bounds.height / 2)
            badge.text = "NEW 123"
            #expect(badge.intrinsicContentSize.width > badge.bounds.width)
        }

        @Test func paddedLabelAddsItsInsets() {
            let plain = UILabel()
            plain.text = "Loading…"
            let padded = PaddedLabel()
            padded.text = "Loading…"
            let base = plain.intrinsicContentSize
            #expect(padded.intrinsicContentSize == CGSize(width: base.width + 16, height: base.height + 8))
            padded.contentInsets = .zero
            padded.sizeToFit()
            #expect(padded.bounds.size == base)
        }

        /// While loading: empty title, disabled, the spinner running and centred; afterwards the
        /// title is back and the stopped spinner hidden (`hidesWhenStopped` defaults to true).
        @Test func loadingButtonSwapsTitleAndSpinner() {
            let button = LoadingButton(frame: CGRect(x: 0, y: 0, width: 120, height: 44))
            button.setTitle("Save", for: .normal)
            #expect(button.spinner.isHidden && !button.spinner.isAnimating)
            button.showLoading()
            button.layoutIfNeeded()
            #expect(button.title(for: .normal) == "" && !button.isEnabled)
            #expect(button.spinner.isAnimating && !button.spinner.isHidden)
            #expect(button.spinner.center == CGPoint(x: 60, y: 22) && button.spinner.superview === button)
            button.hideLoading()
            #expect(button.title(for: .normal) == "Save" && button.isEnabled)
            #expect(!button.spinner.isAnimating && button.spinner.isHidden)
            #expect(button.buttonType == .custom && button.layer.cornerRadius == 8)
        }

        /// Touch down inside highlights (alpha 0.5); touch up inside un-highlights and sends
        /// `.touchUpInside` once.
        @Test func controlDimsWhilePressed() {
            CAMediaClock.setManualTime(0)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            window.makeKeyAndVisible()
            let control = DimOnPressControl(frame: CGRect(x: 50, y: 50, width: 80, height: 40))
            window.addSubview(control)
            var taps = 0
            control.addAction(UIAction { _ in taps += 1 }, for: .touchUpInside)
            UIApplication.shared.sendPointerEvent(.began, at: CGPoint(x: 60, y: 60), timestamp: 0.1, in: window)
            #expect(control.isHighlighted && control.alpha == 0.5 && taps == 0)
            UIApplication.shared.sendPointerEvent(.ended, at: CGPoint(x: 60, y: 60), timestamp: 0.2, in: window)
            #expect(!control.isHighlighted && control.alpha == 1 && taps == 1)
        }

        /// The overlay's view is 70 % black; the spinner runs while it is on screen, centred.
        @Test func spinnerOverlayRunsWhileOnScreen() throws {
            let overlay = SpinnerOverlayController()
            overlay.loadViewIfNeeded()
            #expect(overlay.view.backgroundColor?.cgColor.alpha == 0.7)
            overlay.view.frame = CGRect(x: 0, y: 0, width: 320, height: 480)
            overlay.viewWillAppear(true)
            overlay.centreSpinner()
            #expect(overlay.spinner.isAnimating && !overlay.spinner.isHidden)
            #expect(overlay.spinner.center == CGPoint(x: 160, y: 240))
            #expect(overlay.spinner.bounds.size == overlay.spinner.intrinsicContentSize)
            #expect(overlay.spinner.style == .large && overlay.spinner.color == .white)
            overlay.viewDidDisappear(true)
            #expect(!overlay.spinner.isAnimating && overlay.spinner.isHidden)
        }

        /// Light-mode values of the semantic colours (Citrine's table, UIColor+System.swift:
        /// iOS 13–18): systemBackground white, label black, secondaryLabel (60, 60, 67) at 60 %,
        /// systemGray5 (229, 229, 234), systemBlue (0, 122, 255). Labels are laid out in the
        /// bounds inset by (12, 16, 12, 16).
        @Test func statusCardUsesSemanticColours() {
            let card = StatusCardView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
            card.layoutIfNeeded()
            #expect(Self.rgba(card.backgroundColor) == [255, 255, 255, 100])
            #expect(Self.rgba(card.titleLabel.textColor) == [0, 0, 0, 100])
            #expect(Self.rgba(card.subtitleLabel.textColor) == [60, 60, 67, 60])
            #expect(Self.rgba(UIColor(cgColor: card.track.strokeColor!)) == [229, 229, 234, 100])
            #expect(Self.rgba(card.progressBar.progressTintColor) == [0, 122, 255, 100])
            #expect(card.titleLabel.frame == CGRect(x: 16, y: 12, width: 268, height: 20))
            #expect(card.progressBar.frame == CGRect(x: 16, y: 84, width: 268, height: 4))
        }

        /// Apple: progress defaults to 0; "values less than 0.0 and greater than 1.0 are pinned".
        @Test func progressViewPinsItsProgress() {
            CAMediaClock.setManualTime(0)
            let card = StatusCardView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
            let bar = card.progressBar
            #expect(bar.progress == 0 && bar.progressViewStyle == .default)
            bar.progress = 1.5
            #expect(bar.progress == 1)
            bar.progress = -1
            #expect(bar.progress == 0)
            bar.setProgress(0.8, animated: true)
            #expect(bar.progress == 0.8)
            CATransaction.flush()
        }

        /// Apple: `hidesWhenStopped` defaults to true; `.medium` is 100 and `.large` 101; a set
        /// colour replaces the style's.
        @Test func activityIndicatorContract() {
            let spinner = UIActivityIndicatorView(style: .large)
            #expect(spinner.hidesWhenStopped && spinner.isHidden && !spinner.isAnimating)
            #expect(UIActivityIndicatorView.Style.medium.rawValue == 100 && UIActivityIndicatorView.Style.large.rawValue == 101)
            spinner.startAnimating()
            #expect(spinner.isAnimating && !spinner.isHidden)
            spinner.hidesWhenStopped = false
            spinner.stopAnimating()
            #expect(!spinner.isAnimating && !spinner.isHidden)
            spinner.color = .systemRed
            #expect(spinner.color == .systemRed)
        }

        /// `viewDidLayoutSubviews()` runs after the view's layout: in a 320 × 480 window the ring
        /// is a 280-point square at (20, 100); after a resize to 480 × 320, at (100, 20).
        @Test func controllerLaysOutInViewDidLayoutSubviews() {
            CAMediaClock.setManualTime(0)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
            let controller = RingHostController()
            window.rootViewController = controller
            window.makeKeyAndVisible()
            controller.view.frame = window.bounds
            controller.view.layoutIfNeeded()
            #expect(controller.ring.frame == CGRect(x: 20, y: 100, width: 280, height: 280))
            let passes = controller.layoutPasses
            #expect(passes >= 1)
            controller.view.frame = CGRect(x: 0, y: 0, width: 480, height: 320)
            controller.view.layoutIfNeeded()
            #expect(controller.ring.frame == CGRect(x: 100, y: 20, width: 280, height: 280))
            #expect(controller.layoutPasses == passes + 1)
        }
    }
}
