#!/usr/bin/env python3
"""The sandbox's device verification page in a real browser (headless Chromium through
selenium and chromedriver), driven the way a person uses it, against a running
`tokenswap serve --sandbox`:

  1. the device asks tokenswap for a code (POST /v1/device/code);
  2. the browser opens verification_uri_complete: the form is pre-filled with the code;
  3. the browser opens the plain verification_uri, finds the field by its label, types
     the user code, and presses Approve (no JavaScript involved: the page has none);
  4. the device polls /v1/device/token, honouring interval and slow_down, and gets tokens.

Usage: device_page_browser.py BASE_URL SCREENSHOT_DIR
Exits 0 on success, 1 with one line on stderr naming the step that failed. Never prints
a code or a token.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def post(url, fields):
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(
        url, data=data, headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def fail(step):
    print(f"device_page_browser: FAILED at: {step}", file=sys.stderr)
    sys.exit(1)


def browser():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=800,600"):
        options.add_argument(argument)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def main():
    base, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    status, code = post(base + "/v1/device/code", {"scope": "tv"})
    if status != 200:
        fail(f"device code request answered {status}")
    user_code = code["user_code"]
    driver = browser()
    try:
        driver.get(code["verification_uri_complete"])
        field = driver.find_element(By.ID, "user_code")
        if field.get_attribute("value") != user_code:
            fail("verification_uri_complete did not pre-fill the code")
        label = driver.find_element(By.CSS_SELECTOR, "label[for=user_code]")
        if not label.text.strip():
            fail("the code field has no label")

        driver.get(code["verification_uri"])
        field = driver.find_element(By.ID, "user_code")
        if field.get_attribute("value"):
            fail("the plain verification page was not empty")
        # Typed as a person would, in lower case and without the dash (RFC 8628 §6.1).
        field.send_keys(user_code.replace("-", "").lower())
        driver.save_screenshot(os.path.join(shots, "device-page-filled.png"))
        driver.find_element(By.CSS_SELECTOR, "button[value=approve]").click()
        result = driver.find_element(By.CSS_SELECTOR, "[role=status]").text
        driver.save_screenshot(os.path.join(shots, "device-page-approved.png"))
        if "Device connected" not in result:
            fail("the page did not confirm the approval")
    finally:
        driver.quit()

    interval = code["interval"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(interval)  # time is the protocol: RFC 8628 §3.5's polling interval
        status, answer = post(base + "/v1/device/token", {"device_code": code["device_code"]})
        if status == 200:
            if not answer.get("access_token") or not answer.get("refresh_token"):
                fail("the tokens lack access_token or refresh_token")
            print("device_page_browser: OK")
            return
        error = answer.get("error")
        if error == "slow_down":
            interval = answer.get("interval", interval + 5)
        elif error != "authorization_pending":
            fail(f"the poll answered {status} {error}")
    fail("no tokens within 60 s")


if __name__ == "__main__":
    main()
