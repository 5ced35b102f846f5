#!/usr/bin/env python3
"""Build SPConnect's multilingual sign-in vocabulary from identity providers' message catalogs.

Reads the translated message catalogs in ../shared/corpus/idp-strings (Java .properties, JSON, gettext, XLIFF, YAML,
SimpleSAMLphp dictionaries), maps message keys to the sign-in engine's concepts (`SignInLexicon.Concept`) with one
table per source, derives words, stems and embedded phrases per language, and writes
Modules/HTML/Lexicon/SignInLexicon+Catalogs.swift. `--check` compares instead of writing. Standard library only.
"""

import argparse
import difflib
import functools
import html
import itertools
import json
import os
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# The concepts, spelled as the Swift cases of `SignInLexicon.Concept`.
CONCEPTS = [
    "user", "password", "code", "newPassword", "error", "expired", "verify", "approve", "device", "continue",
    "secondFactor", "enroll", "staySignedIn", "accept", "decline", "wrong", "credentials", "secondFactorMethod",
    "signIn", "locked", "choose",
]


# ---------------------------------------------------------------------------------------------------------------------
# Key → concept tables, one per source.
#
# A key is the catalog's message key (for gettext, XLIFF and Authelia, whose keys are the English text, that text). A
# `*` in a key is a wildcard. The value names one or more concepts: the first is the message's concept, whose words the
# message shows; any further ones take only the words of the message that no concept claims (`derive_spaced`): "Invalid
# username or password" is `wrong credentials`, and a translation that says "invalid credentials" gives credentials
# its word. Keys only, never page text, decide what a message is about.
# ---------------------------------------------------------------------------------------------------------------------

KEYCLOAK = {
    # sign in
    "doLogIn": "signIn", "loginAccountTitle": "signIn", "loginTitle": "signIn", "doSubmit": "signIn",
    "identity-provider-login-label": "signIn", "webauthn-doAuthenticate": "signIn secondFactorMethod",
    "passkey-doAuthenticate": "signIn secondFactorMethod", "delegationCompleteHeader": "signIn",
    # user, password
    "username": "user", "usernameOrEmail": "user", "usernamePlaceholder": "user", "console-username": "user",
    "auth-username-form-display-name": "user", "missingUsernameMessage": "user", "auth-username-form-help-text": "user",
    "password": "password", "password-display-name": "password", "console-password": "password",
    "missingPasswordMessage": "password", "password-help-text": "password", "currentPassword": "password",
    # new password
    "passwordNew": "newPassword", "passwordNewConfirm": "newPassword", "passwordConfirm": "newPassword",
    "console-new-password": "newPassword", "console-confirm-password": "newPassword",
    "updatePasswordTitle": "newPassword", "requiredAction.UPDATE_PASSWORD": "newPassword",
    "changePasswordHtmlTitle": "newPassword", "resetPasswordMessage": "newPassword",
    "console-update-password": "newPassword expired",
    # one-time code
    "authenticatorCode": "code", "loginOtpOneTime": "code", "console-otp": "code", "missingTotpMessage": "code",
    "enterBarCode": "code", "enterYourVerficationCode": "code", "otp-help-text": "code",
    "verifyOAuth2DeviceUserCode": "code", "console-email-code": "code", "auth-recovery-code-info-message": "code",
    "loginTotpStep3": "code", "totpStep3": "code", "mobileSetupStep3": "code", "sendVerficationCode": "code",
    "copyCodeInstruction": "code",
    # wrong
    "invalidUserMessage": "wrong credentials", "invalidUsernameMessage": "wrong", "invalidPasswordMessage": "wrong",
    "invalidUsernameOrEmailMessage": "wrong", "invalidEmailMessage": "wrong", "invalidTotpMessage": "wrong",
    "invalidPasswordExistingMessage": "wrong", "invalidAccessCodeMessage": "wrong",
    "recovery-codes-error-invalid": "wrong",
    "oauth2DeviceInvalidUserCodeMessage": "wrong", "error-invalid-value": "wrong", "error-invalid-email": "wrong",
    "error-invalid-number": "wrong", "error-invalid-date": "wrong", "error-invalid-uri*": "wrong",
    "error-pattern-no-match": "wrong", "*-invalid-character": "wrong", "invalidRequestMessage": "wrong",
    "invalidParameterMessage": "wrong", "invalidRedirectUriMessage": "wrong", "invalidRequesterMessage": "wrong",
    "recaptchaFailed": "wrong", "identityProviderInvalidResponseMessage": "wrong",
    "identityProviderInvalidSignatureMessage": "wrong", "notMatchPasswordMessage": "wrong",
    "invalidPasswordConfirmMessage": "wrong", "invalidFederatedIdentityActionMessage": "wrong",
    "webauthn-error-auth-verification": "wrong", "webauthn-error-register-verification": "wrong",
    # locked
    "accountDisabledMessage": "locked", "accountTemporarilyDisabledMessage": "locked",
    # expired
    "expiredCodeMessage": "expired", "expiredActionMessage": "expired", "expiredActionTokenNoSessionMessage": "expired",
    "expiredActionTokenSessionExistsMessage": "expired", "pageExpiredTitle": "expired",
    "oauth2DeviceExpiredUserCodeMessage": "expired", "staleCodeAccountMessage": "expired", "loginTimeout": "expired",
    "brokerLinkingSessionExpired": "expired", "expires": "expired",
    # error
    "errorTitle": "error", "codeErrorTitle": "error", "somethingWentWrong": "error",
    "somethingWentWrongDescription": "error", "internalServerError": "error", "webauthn-error-title": "error",
    "identityProviderUnexpectedErrorMessage": "error", "emailSendErrorMessage": "error",
    "delegationFailedHeader": "error",
    "identityProviderAuthenticationFailedMessage": "error", "oauth2DeviceVerificationFailedHeader": "error",
    "failedToProcessResponseMessage": "error", "invalidCodeMessage": "error", "errorDeletingAccount": "error",
    # continue, accept, decline
    "doContinue": "continue", "proceedWithAction": "continue", "pageExpiredMsg2": "continue",
    "doAccept": "accept", "accept": "accept", "acceptTerms": "accept", "oauthGrantTitle": "accept",
    "oauthGrantRequest": "accept", "console-accept-terms": "accept",
    "doCancel": "decline", "doDecline": "decline", "doDeny": "decline", "deny": "decline", "cancel": "decline",
    "recovery-codes-action-cancel": "decline", "consentDenied": "decline",
    "doApprove": "approve", "approve": "approve", "approveAll": "approve", "waitingforApproval": "approve",
    # stay signed in, choose
    "rememberMe": "staySignedIn",
    "loginChooseAuthenticator": "choose", "doTryAnotherWay": "choose", "choose": "choose", "selectOne": "choose",
    "error-reset-otp-missing-id": "choose",
    # enroll, second factor, methods, device
    "loginTotpTitle": "enroll", "configureTotpMessage": "enroll", "requiredAction.CONFIGURE_TOTP": "enroll",
    "authenticatorActionSetup": "enroll", "doRegister": "enroll", "doRegisterSecurityKey": "enroll",
    "loginTotpIntro": "enroll", "webauthn-registration-title": "enroll", "recovery-codes-action-complete": "enroll",
    "authenticatorSubTitle": "enroll secondFactor", "authenticatorMobileSetupTitle": "enroll",
    "requiredAction.webauthn-register": "enroll", "registerTitle": "enroll", "configureBackupCodesMessage": "enroll",
    "webauthn-error-registration": "enroll", "authenticatorSMSCodeSetupTitle": "enroll",
    "two-factor": "secondFactor", "authenticatorFinishSetUpTitle": "secondFactor",
    "authenticatorStatusMessage": "secondFactor", "recovery-authn-codes-help-text": "secondFactor",
    "authenticatorMobileMessage": "secondFactor", "authenticatorSMSMessage": "secondFactor",
    "webauthn-display-name": "secondFactorMethod", "webauthn-passwordless-display-name": "secondFactorMethod",
    "otp-display-name": "secondFactorMethod", "authenticatorMobileTitle": "secondFactorMethod",
    "webauthn-login-title": "secondFactorMethod", "passkey-login-title": "secondFactorMethod",
    "webauthn-help-text": "secondFactorMethod", "authenticatorTitle": "secondFactorMethod",
    "authenticator": "secondFactorMethod", "authenticatorSMSTitle": "secondFactorMethod",
    "webauthn-available-authenticators": "secondFactorMethod",
    "loginTotpDeviceName": "device", "totpDeviceName": "device", "missingTotpDeviceNameMessage": "device",
    "oauth2DeviceVerificationTitle": "device", "signedInDevices": "device", "logoutOtherSessions": "device",
    "signOutAllDevices": "device", "deviceActivity": "device", "loginTotpStep3DeviceName": "device",
    "oauth2DeviceVerificationCompleteMessage": "device",
    # verify, credentials
    "emailVerifyTitle": "verify", "requiredAction.VERIFY_EMAIL": "verify", "verifyEmailMessage": "verify",
    "console-verify-email": "verify", "emailVerifyInstruction1": "verify",
    "idp-email-verification-display-name": "verify",
    "loginCredential": "credentials", "credentialSetupRequired": "credentials",
    "realmSupportsNoCredentialsMessage": "credentials", "resetCredentialNotAllowedMessage": "credentials",
    "updateCredAriaLabel": "credentials", "deleteCredentialTitle": "credentials",
}

OKTA = {
    "primaryauth.title": "signIn", "primaryauth.submit": "signIn", "signin": "signIn",
    "oie.primaryauth.submit": "signIn",
    "goback": "signIn", "socialauth.google.label": "signIn", "customauth.sign.in.with.label": "signIn",
    "primaryauth.username.placeholder": "user", "primaryauth.username.tooltip": "user",
    "identifier.icon.alt.text": "user", "error.username.required": "user", "account.unlock.email.or.username.*": "user",
    "password.forgot.email.or.username.*": "user", "enroll.onprem.username.*": "user",
    "primaryauth.password.placeholder": "password", "primaryauth.password.tooltip": "password",
    "error.password.required": "password", "oie.password.label": "password", "oie.password.passwordLabel": "password",
    "mfa.challenge.password.placeholder": "password", "factor.password": "password",
    "oie.password.challenge.title": "password", "password.oldPassword.*": "password",
    "password.newPassword.*": "newPassword", "password.confirmPassword.*": "newPassword",
    "oie.password.newPasswordLabel": "newPassword", "oie.password.confirmPasswordLabel": "newPassword",
    "password.expired.submit": "newPassword", "password.reset": "newPassword",
    "oie.password.enroll.title": "newPassword",
    "password.reset.title.generic": "newPassword",
    "errors.E0000004": "wrong credentials", "errors.E0000207": "wrong credentials",
    "oie.password.incorrect.message": "wrong",
    "password.error.match": "wrong", "password.enroll.error.match": "wrong", "oie.phone.invalid": "wrong",
    "oie.webauthn.error.invalidPasskey": "wrong", "idx.invalid.device.code": "wrong", "errors.E0000011": "wrong",
    "errors.E0000005": "wrong", "errors.E0000087": "wrong", "errors.E0000098": "wrong",
    "oie.invalid.recovery.token": "wrong",
    "registration.error.userName.invalidEmail": "wrong", "errors.E0000029": "wrong", "errors.E0000031": "wrong",
    "errors.E0000063": "wrong", "errors.E0000013": "wrong", "errors.E0000053": "wrong",
    "errors.E0000041": "credentials", "idx.recovery.completed": "credentials",
    "error.auth.lockedOut": "locked", "errors.E0000069": "locked", "errors.E0000119": "locked",
    "oie.activation.request.email.title.suspended": "locked", "errors.E0000104": "locked",
    "account.unlock.title": "locked", "unlockaccount": "locked", "account.unlock.question.submit": "locked",
    "password.expiring.subtitle.generic": "locked",
    "error.expired.session": "expired", "password.expired.title": "expired",
    "password.expired.title.generic": "expired",
    "password.expired.title.specific": "expired", "password.expiring.title": "expired",
    "password.expiring.today": "expired",
    "password.expiring.soon": "expired", "errors.E0000064": "expired", "oktaverify.timeout": "expired",
    "idx.return.link.expired": "expired", "oie.activation.request.email.title.expire": "expired",
    "errors.E0000105": "expired", "errors.E0000110": "expired", "idx.session.expired": "expired",
    "idx.password.expiring.message": "expired",
    "oform.error.icon.ariaLabel": "error", "error.server.internal": "error", "oform.error.unexpected": "error",
    "oform.errorbanner.title": "error", "error.config": "error", "errors.E0000009": "error",
    "error.enabled.cors": "error",
    "piv.cac.error": "error", "oie.duo.iFrameError": "error", "errors.E0000067": "error", "errors.E0000074": "error",
    "oform.next": "continue", "oie.optional.authenticator.button.title": "continue",
    "enroll.choices.submit.next": "continue",
    "idx.device_assurance.grace_period.continue_to_app": "continue", "oform.verify": "verify",
    "mfa.challenge.verify": "verify", "verify.choices.description": "verify", "oie.phone.verify.title": "verify",
    "oie.email.mfa.title": "verify", "oie.verify.google_authenticator.otp.title": "verify",
    "oie.select.authenticators.verify.title": "verify", "oie.authenticator.verify.error.fail": "verify",
    "user.fail.verifyIdentity": "verify", "oie.idv.idp.title": "verify", "oie.duo.verify.title": "verify",
    "mfa.challenge.enterCode.*": "code", "mfa.sendCode": "code", "mfa.resendCode": "code",
    "oie.okta_verify.totp.title": "code", "oie.okta_verify.totp.enterCodeText": "code",
    "oie.google_authenticator.otp.enterCodeText": "code", "oie.custom_otp.verify.passcode.label": "code",
    "enroll.totp.enterCode": "code", "oie.phone.verify.enterCodeText": "code", "factor.totpSoft.description": "code",
    "factor.totpHard.description": "code", "factor.sms.description": "code", "factor.email.description": "code",
    "factor.hotp.description": "code", "mfa.challenge.orEnterCode": "code",
    "oie.symantecVip.verify.passcode.label": "code",
    "enroll.onprem.passcode.*": "code", "enroll.symantecVip.passcode1.*": "code",
    "idx.return.link.otponly.your.verification.code": "code", "oie.phone.sms.primaryButton": "code",
    "oie.email.verify.alternate.show.verificationCode.text": "code", "mfa.challenge.title": "code",
    "oktaverify.send": "approve", "oktaverify.resend": "approve", "oktaverify.sent": "approve",
    "factor.push.description": "approve",
    "oie.okta_verify.push.title": "approve", "oie.okta_verify.push.sent": "approve",
    "oie.okta_verify.sendPushButton": "approve",
    "oie.okta_verify.push.resend": "approve", "autoPush": "approve", "oie.custom_app.push.title": "approve",
    "oktaverify.warning": "approve", "oie.okta_verify.push.sent.respond_to_continue": "approve",
    "oktaverify.numberchallenge.instruction": "approve", "mfa.duoSecurity.push": "approve",
    "oie.select.authenticator.okta_verify.push.label": "approve",
    "remember": "staySignedIn", "rememberDevice": "staySignedIn", "rememberDevice.devicebased": "staySignedIn",
    "rememberDevice.timebased": "staySignedIn", "oie.remember": "staySignedIn", "oie.kmsi.title": "staySignedIn",
    "oie.kmsi.accept": "staySignedIn", "consent.scopes.offlineAccess.label": "staySignedIn",
    "consent.scopes.onlineAccess.label": "staySignedIn",
    "oie.kmsi.reject": "decline", "oform.cancel": "decline", "consent.required.cancelButton": "decline",
    "loopback.polling.cancel.link": "decline", "oktaverify.rejected": "decline", "errors.E0000073": "decline",
    "consent.required.consentButton": "accept", "oie.consent.scopes.granular.description": "accept",
    "mfa.factors.dropdown.title": "choose", "oie.select.authenticators.verify.subtitle": "choose",
    "oie.verification.switch.authenticator": "choose", "mfa.switch": "choose", "mfa.backToFactors": "choose",
    "select.default_value": "choose",
    "enroll.totp.selectDevice": "choose device", "oie.enroll.okta_verify.select.channel.description": "choose",
    "verify.windowsHello.error.notFound.selectAnother": "choose", "error.jit_failure": "choose",
        "mfa.enroll": "enroll", "mfa.setupOptions": "enroll", "enroll.choices.setup": "enroll",
    "enroll.choices.setup.another": "enroll", "enroll.choices.submit.configure": "enroll",
    "oie.enroll.webauthn.save": "enroll", "enroll.webauthn.save": "enroll", "enroll.customFactor.save": "enroll",
    "oie.select.authenticators.enroll.title": "enroll", "oie.enroll.authenticator.promotion.cta": "enroll",
    "enroll.choices.list.setup": "enroll", "enroll.u2f.save": "enroll", "oie.authenticator.enroll.error.fail": "enroll",
    "oie.select.authenticator.enroll.*": "enroll", "enroll.totp.title": "enroll", "enroll.yubikey.title": "enroll",
    "enroll.choices.title": "enroll secondFactor", "oie.phone.enroll.title": "enroll",
    "enroll.choices.description.generic": "secondFactor", "error.mfa.required": "secondFactor",
    "errors.E0000058": "secondFactor", "factor.customFactor.description.generic": "secondFactor",
    "factor.u2f": "secondFactorMethod", "factor.u2f.description.generic": "secondFactorMethod",
    "factor.webauthn.biometric": "secondFactorMethod", "oie.webauthn.label": "secondFactorMethod",
    "oie.webauthn.description": "secondFactorMethod", "factor.totpHard.yubikey": "secondFactorMethod",
    "oie.yubikey.label": "secondFactorMethod", "signinWithPasskeys.button": "secondFactorMethod signIn",
    "oie.enroll.webauthn.passkeysRebrand.passkeys.title": "secondFactorMethod", "factor.sms": "secondFactorMethod",
    "oie.phone.enroll.sms.label": "secondFactorMethod", "oie.google_authenticator.label": "secondFactorMethod",
    "factor.totpSoft.googleAuthenticator": "secondFactorMethod", "oie.verify.webauth.title": "secondFactorMethod",
    "oie.verify.webauth.passkeysRebrand.passkeys.title": "secondFactorMethod",
    "oie.enroll.webauthn.title": "secondFactorMethod", "enroll.u2f.title": "secondFactorMethod",
    "icon.title.mobileDevice": "device", "oie.phone.label": "device", "mfa.phoneNumber.placeholder": "device",
    "oie.authenticator.app.method.push.verify.enable.biometrics.point1": "device",
    "enroll.oda.with.account.step2": "device", "oie.enroll.okta_verify.select.channel.title.updated": "device",
    "oie.okta_verify.fastpass.blocked.title": "device", "password.reset.revokeSessions": "device",
    "oie.enroll.okta_verify.setup.subtitle": "device", "errors.E0000103": "device",
}

APEREO_CAS = {
    "screen.welcome.button.login": "signIn", "cas.login.pagetitle": "signIn", "screen.error.page.loginagain": "signIn",
    "screen.welcome.instructions": "signIn credentials", "screen.success.header": "signIn",
    "screen.welcome.button.loginwip": "signIn",
    "screen.welcome.label.netid": "user", "screen.pm.reset.username": "user", "screen.pm.button.forgotUsername": "user",
    "screen.pm.forgotusername.title": "user", "passwordless.getuser.description": "user",
    "screen.welcome.label.password": "password", "screen.pm.currentpsw": "password", "screen.pm.enterpsw": "password",
    "screen.pm.password.show": "password", "passwordless.selection.password.header": "password",
    "screen.pm.confirmpsw": "newPassword", "screen.button.changePassword": "newPassword",
    "screen.pm.reset.title": "newPassword", "screen.pm.button.resetPassword": "newPassword",
    "screen.mustchangepass.heading": "newPassword", "screen.mustchangepass.message": "newPassword",
    "screen.expiredpass.message": "newPassword",
    "authenticationFailure.AuthenticationException": "wrong credentials",
    "authenticationFailure.FailedLoginException": "wrong credentials", "INVALID_AUTHN_REQUEST": "wrong credentials",
    "screen.blocked.message": "wrong locked", "screen.pm.password.confirmMismatch": "wrong",
    "screen.pm.reset.email.invalid": "wrong", "screen.pm.reset.contact.invalid": "wrong",
    "screen.pm.forgotusername.contact.invalid": "wrong", "screen.error.page.invalidrequest": "wrong",
    "cas.mfa.simple.token.failed": "wrong", "screen.authentication.gauth.invalidtoken": "wrong",
    "screen.authentication.gauth.invalid": "wrong credentials", "cas.inwebo.enroll.badpinconfirmation": "wrong",
    "cas.screen.acct.error.invalid-value": "wrong", "passwordless.error.failure.description": "wrong",
    "authenticationFailure.MultifactorAuthenticationFailedException": "wrong secondFactor",
    "authenticationFailure.AccountDisabledException": "locked",
    "authenticationFailure.AccountLockedException": "locked",
    "screen.accountdisabled.heading": "locked", "screen.accountlocked.heading": "locked",
    "screen.account.unlock.description": "locked", "screen.accountunlocked.heading": "locked",
    "screen.authentication.gauth.blocked.title": "locked", "screen.authnblocked.heading": "locked",
    "screen.authentication.gauth.blocked.desc": "locked",
    "authenticationFailure.CredentialExpiredException": "expired",
    "authenticationFailure.AccountExpiredException": "expired",
    "authenticationFailure.AccountPasswordMustChangeException": "expired", "screen.expiredpass.heading": "expired",
    "password.expiration.warning": "expired", "screen.service.expired.message": "expired",
    "screen.error.page.heading": "error", "screen.authentication.error.title": "error",
    "screen.error.page.title.*": "error",
    "screen.consent.review.error": "error", "cas.inwebo.browser.failure": "error",
    "authenticationFailure.UNKNOWN": "error",
    "screen.authentication.webauthn.authn.fail.title": "error", "screen.pm.reset.heading": "error",
    "screen.welcome.button.continue": "continue", "screen.button.continue": "continue",
    "screen.welcome.button.proceed": "continue",
    "cas.mfa.providerselection.button.label.skip": "continue", "cas.mfa.registerdevice.button.skip": "continue",
    "cas.oauth.device.confirmed.message": "continue device",
    "screen.aup.button.accept": "accept", "screen.consent.confirm": "accept", "screen.welcome.button.confirm": "accept",
    "screen.consent.title": "accept", "screen.aup.heading": "accept",
    "screen.pm.button.cancel": "decline", "screen.aup.button.cancel": "decline", "screen.consent.cancel": "decline",
    "cas.mfa.providerselection.button.label.cancel": "decline", "screen.authentication.gauth.cancel": "decline",
    "screen.mfaDenied.header": "decline secondFactor", "screen.mfaDenied.heading": "decline secondFactor",
    "screen.rememberme.checkbox.title": "staySignedIn", "cas.mfa.registerdevice.label.duration": "staySignedIn device",
    "screen.account.trusteddevices.title": "staySignedIn device",
    "cas.mfa.providerselection.title": "choose secondFactor", "cas.mfa.providerselection.pagetitle": "choose",
    "cas.inwebo.selectauthent.heading": "choose", "cas.inwebo.selectauthent.title": "choose",
    "passwordless.selection.description": "choose", "passwordless.selection.header": "choose",
    "screen.authentication.gauth.selectdevice": "choose device",
    "screen.authentication.gauth.selanotherdevice": "choose device",
    "cas.mfa.simple.contact-selection.title": "choose", "screen.pac4j.button.selectprovider": "choose",
    "screen.surrogates.choose.account": "choose",
    "cas.mfa.googleauth.label.token": "code", "cas.mfa.simple.label.token": "code",
    "cas.mfa.yubikey.label.token": "code",
    "cas.mfa.twilio.label.token": "code", "screen.welcome.label.token": "code",
    "cas.mfa.simple.label.tokensent": "code",
    "passwordless.token.header": "code", "passwordless.token.description": "code", "cas.inwebo.pin": "code",
    "cas.inwebo.browser.heading": "code", "cas.oauth.device.confirm.message": "code device",
    "cas.mfa.twilio.label.tokensent": "code", "cas.mfa.simple.label.resend": "code",
    "screen.welcome.button.register": "enroll", "cas.mfa.registerdevice.button.register": "enroll",
    "cas.mfa.registerdevice.label.title": "enroll device", "cas.mfa.registerdevice.pagetitle": "enroll device",
    "screen.authentication.gauth.register": "enroll", "screen.authentication.gauth.registerdesc": "enroll device",
    "screen.authentication.gauth.confirm.title": "enroll", "cas.mfa.simple.registration.title": "enroll",
    "cas.mfa.yubikey.register": "enroll device", "cas.mfa.webauthn.register.helptext": "enroll",
    "screen.authentication.gauth.reganotherdevice": "enroll device", "cas.inwebo.enroll.code": "enroll code",
    "cas.mfa.providerselection.optional.header": "secondFactor", "screen.mfaUnavailable.heading": "secondFactor",
    "screen.account.mfadevices.title": "secondFactor device",
    "authenticationFailure.MultifactorAuthenticationProviderAbsentException": "secondFactor",
    "cas.mfa.simple.pagetitle": "secondFactor", "passwordless.selection.mfa.header": "secondFactor",
    "cas.mfa.providerselection.mfa-webauthn": "secondFactorMethod",
    "cas.mfa.providerselection.mfa-gauth": "secondFactorMethod",
    "cas.mfa.providerselection.mfa-yubikey": "secondFactorMethod",
    "screen.authentication.webauthn.login.title": "secondFactorMethod",
    "cas.mfa.yubikey.authenticate": "secondFactorMethod",
    "screen.authentication.gauth.name": "device", "screen.authentication.webauthn.name": "device",
    "screen.authentication.gauth.deletedevice": "device", "screen.authentication.gauth.currentdevices": "device",
    "screen.account.mfadevices.subtitle": "device", "cas.mfa.registerdevice.label.intro": "device",
    "cas.oauth.device.confirm.header": "device", "screen.account.mfadevices.register.success": "device",
    "cas.oauth.device.confirmed.header": "approve", "cas.inwebo.selectauthent.push": "approve",
    "cas.mfa.providerselection.mfa-duo.notes": "approve",
    "screen.authentication.gauth.confirm.desc": "verify", "cas.mfa.webauthn.auth.fail": "verify",
    "cas.screen.acct.intro.complete": "verify",
}

SHIBBOLETH = {
    "idp.login.login": "signIn", "idp.login.loginTo": "signIn", "idp.login.pleasewait": "signIn",
    "idp.login.username": "user", "bad-username.message": "user",
    "idp.login.password": "password",
    "idp.login.changePassword": "newPassword",
    "bad-password.message": "wrong", "invalid-csrf-token.message": "wrong", "invalid-event.title": "wrong",
    "account-locked.message": "locked",
    "expired-password.message": "expired", "idp.login.expiringSoon": "expired",
    "error.title": "error", "authn.title": "error", "unexpected.title": "error", "unexpected.message": "error",
    "idp.message": "error", "runtime-error.title": "error", "invalid-csrf-token.title": "error",
    "idp.title.suffix": "error",
    "idp.attribute-release.accept": "accept", "idp.terms-of-use.accept": "accept",
    "idp.attribute-release.doNotRememberConsentItem": "accept", "idp.attribute-release.rememberConsentItem": "accept",
    "idp.attribute-release.reject": "decline", "idp.terms-of-use.reject": "decline", "idp.logout.cancel": "decline",
    "idp.login.duoCancel": "decline", "idp.unlock-keys.cancel": "decline", "spnego-unavailable.return": "decline",
    "idp.login.donotcache": "staySignedIn",
    "idp.login.proceedEnd": "continue",
    "idp.logout.prompt": "choose", "idp.attribute-release.consentMethod": "choose",
    "idp.login.duoRequired": "secondFactor",
}

AUTHELIA = {
    "Sign in": "signIn", "Login - {{authelia}}": "signIn",
    "There was an issue completing sign in process": "signIn error",
    "Username": "user", "Username is required": "user", "Switch User": "user",
    "Password": "password", "Enter your password to confirm your identity": "password",
    "Incorrect password": "wrong", "Incorrect username or password": "wrong credentials",
    "The One-Time Password might be wrong": "wrong", "Passwords do not match": "wrong",
    "The One-Time Code either doesn't match the one generated or an unknown error occurred": "wrong",
    "The server responded with an invalid Facet ID for the URL": "wrong",
    "Enter new password": "newPassword", "New Password": "newPassword", "New password": "newPassword",
    "Repeat New Password": "newPassword", "Repeat new password": "newPassword", "Change Password": "newPassword",
    "Reset password": "newPassword", "Old Password": "password",
    "Code": "code", "Email One-Time Code": "code", "Enter One-Time Password": "code", "One-Time Password": "code",
    "Confirm the Code": "code", "Failed to submit the user code": "code",
    "Error": "error", "An unexpected error occurred": "error", "An unknown error occurred": "error",
    "An error occurred processing the request": "error", "An unknown security error occurred": "error",
    "Error Code": "error", "There was a problem {{action}} the {{item}}": "error",
    "Failed to register device, the provided code is expired or has already been used": "expired",
    "Failed to register device, the provided link is expired or has already been used": "expired",
    "There was an issue completing the process the verification token might have expired": "expired",
    "This is disabled by your administrator": "locked",
    "Accept": "accept", "Accept this consent request": "accept", "Consent Request": "accept",
    "Consent has been accepted and processed": "accept", "Remember Consent": "accept",
    "Cancel": "decline", "Deny": "decline", "Deny this consent request": "decline",
    "Consent has been rejected and processed": "decline", "You cancelled the assertion request": "decline",
    "You cancelled the attestation request": "decline",
    "Next": "continue", "To begin select next": "continue", "Logout and continue the current flow": "continue",
    "Remember me": "staySignedIn",
    "Select a Method": "choose", "Select a Device": "choose device", "Methods": "choose",
    "Device selection was denied by Duo policy": "choose device",
    "Register": "enroll", "Register device": "enroll device", "Register {{item}}": "enroll",
    "Register your first device by clicking on the link below": "enroll device",
    "Contact your administrator to register a device": "enroll device",
    "This dialog handles registration of a {{item}}": "enroll",
    "Two-Factor Authentication": "secondFactor",
    "The resource you're attempting to access requires two-factor authentication": "secondFactor",
    "There are no protected applications that require a second factor method": "secondFactor",
    "In order to perform this action, policy enforcement requires that two-factor*": "secondFactor",
    "Security Key": "secondFactorMethod", "Security Key - WebAuthn": "secondFactorMethod",
    "WebAuthn": "secondFactorMethod",
    "Time-based One-Time Password": "secondFactorMethod", "Sign in with a passkey": "secondFactorMethod signIn",
    "WebAuthn Credential": "secondFactorMethod", "WebAuthn Credentials": "secondFactorMethod",
    "Touch the token of your security key": "secondFactorMethod",
    "Touch the token on your security key": "secondFactorMethod",
    "Mobile Push": "approve", "Push Notification": "approve",
    "A notification has been sent to your smartphone": "approve",
    "Manage devices": "device", "This device is not registered": "device", "No compatible device found": "device",
    "You have registered this device already": "device",
    "Verify": "verify", "Identity Verification": "verify", "Verification": "verify",
    "Use OpenID to verify your identity": "verify", "Failed to confirm your identity": "verify",
    "Failed to register your credential, the identity verification process might have timed out": "credentials",
}

AUTHENTIK = {
    "Log in": "signIn", "Login": "signIn", "Login to continue to {x}.": "signIn", "Submit": "signIn",
    "Username": "user", "Not you?": "user",
    "Password": "password", "Please enter your password": "password", "Your authentik password": "password",
    "Show password": "password", "Hide password": "password",
    "Invalid password": "wrong", "Invalid code": "wrong", "Code does not match": "wrong", "Invalid Token": "wrong",
    "Invalid phone number": "wrong", "Invalid captcha response": "wrong", "Passwords don't match.": "wrong",
    "Failed to validate token: {error}": "wrong",
    "Authentication failed. Please try again.": "error", "Authentication Failed.": "error",
    "Failed to authenticate": "error", "Something went wrong! Please try again later.": "error", "Error": "error",
    "Unknown error": "error", "There was an error": "error", "Validation Error": "error",
    "Password has expired.": "expired", "Password expired %(days)d days ago. Please update your password.": "expired",
    "Inactive": "locked", "When set, newly created users are inactive and cannot login.": "locked",
    "Code": "code", "Authentication code": "code", "Please enter your code": "code", "Please enter your Code": "code",
    "Please enter your TOTP Code": "code", "Please enter the code you received via SMS": "code",
    "A code has been sent to you via SMS.": "code", "Use a code-based authenticator.": "code",
    "Enter the code shown on your device.": "code device",
    "Continue": "continue", "Next": "continue", "Select one of the options below to continue.": "choose",
    "Cancel": "decline",
    "Stay signed in?": "staySignedIn",
    "Select Yes to reduce the number of times you're asked to sign in.": "staySignedIn",
    "Select an authentication method.": "choose", "Return to device picker": "choose device",
    "In case you can't access any other method.": "choose",
    "Force the user to configure an authenticator": "enroll", "Failed to register": "enroll",
    "Failed to register. Please try again.": "enroll",
    "MFA Authenticators": "secondFactor", "MFA Devices": "secondFactor device",
    "No (allowed) MFA authenticator configured.": "secondFactor",
    "Use a security key": "secondFactorMethod", "Use a security key to prove your identity.": "secondFactorMethod",
    "Traditional authenticator": "secondFactorMethod", "WebAuthn": "secondFactorMethod", "TOTP": "secondFactorMethod",
    "A \"roaming\" authenticator, like a YubiKey": "secondFactorMethod",
    "A non-removable authenticator, like TouchID or Windows Hello": "secondFactorMethod",
    "Receive a push notification on your device.": "approve", "Sending Duo push notification...": "approve",
    "Duo push-notifications": "approve",
    "You've successfully authenticated your device.": "device", "Device(s)": "device",
    "Verifying...": "verify", "Verification": "verify", "Check your Inbox for a verification email.": "verify",
    "Successfully verified Email.": "verify",
    "Credentials": "credentials", "Server validation of credential failed: {x}": "credentials",
    "Error creating credential: {x}": "credentials",
}

ZITADEL = {
    "*.LoginButtonText": "signIn", "LDAP.Title": "signIn", "Login.ExternalUserDescription": "signIn",
    "LoginSuccess.Title": "signIn", "SignIn": "signIn", "Passwordless.LoginWithPwButtonText": "signIn",
    "Login.LoginNameLabel": "user", "LDAP.LoginNameLabel": "user", "Login.UsernamePlaceHolder": "user",
    "*.UsernameLabel": "user", "Errors.User.Username.Empty": "user", "SelectAccount.OtherUser": "user",
    "Login.Description": "credentials", "LDAP.Description": "credentials", "Password.Description": "credentials",
    "Password.PasswordLabel": "password", "LDAP.PasswordLabel": "password", "Password.Title": "password",
    "RegistrationUser.PasswordLabel": "password", "Errors.User.Password.Empty": "password",
    "PasswordChange.OldPasswordLabel": "password",
    "*.NewPasswordLabel": "newPassword", "*.NewPasswordConfirmLabel": "newPassword",
    "*.NewPasswordConfirm": "newPassword",
    "RegistrationUser.PasswordConfirmLabel": "newPassword", "PasswordChange.Title": "newPassword",
    "PasswordChange.Description": "newPassword", "InitPassword.Title": "newPassword",
    "Errors.User.Password.NotChanged": "newPassword",
    "Errors.User.UsernameOrPassword.Invalid": "wrong credentials", "Errors.User.Password.Invalid": "wrong",
    "Errors.User.Password.ConfirmationWrong": "wrong", "Errors.User.Code.Invalid": "wrong",
    "Errors.User.MFA.OTP.InvalidCode": "wrong", "Errors.User.Email.Invalid": "wrong",
    "Errors.User.Phone.Invalid": "wrong",
    "Errors.User.Invalid": "wrong", "Errors.IdentityProvider.InvalidConfig": "wrong",
    "Errors.User.Password.InvalidAndLocked": "wrong locked",
    "Errors.User.Locked": "locked", "Errors.User.Inactive": "locked", "Errors.User.NotActive": "locked",
    "Errors.User.Code.Expired": "expired", "PasswordChange.ExpiredDescription": "expired newPassword",
    "Errors.Internal": "error", "Errors.User.SomethingWentWrong": "error",
    "Errors.User.ExternalIDP.LoginFailedSwitchLocal": "error",
    "*.CodeLabel": "code", "*.ResendButtonText": "code", "DeviceAuth.UserCode.Label": "code",
    "DeviceAuth.UserCode.Description": "code device", "InitPassword.Description": "code",
    "EmailVerification.Description": "code verify", "InitMFAOTPSMS.DescriptionCode": "code",
    "*.NextButtonText": "continue", "DeviceAuth.UserCode.ButtonNext": "continue",
    "*.SkipButtonText": "continue",
    "*.CancelButtonText": "decline", "DeviceAuth.Action.Button.Deny": "decline", "DeviceAuth.Done.Denied": "decline",
    "DeviceAuth.Action.Button.Allow": "accept", "DeviceAuth.Action.Description": "accept",
    "*.TosConfirm": "accept", "*.PrivacyConfirm": "accept", "DeviceAuth.Done.Approved": "approve device",
    "MFAProvider.ChooseOther": "choose", "*.ErrorRetry": "choose", "SelectAccount.Title": "choose",
    "SelectAccount.Description": "choose", "RegisterOption.Description": "choose",
    "InitMFAPrompt.Title": "enroll secondFactor", "InitMFAOTP.Description": "enroll secondFactor",
    "InitMFAOTPSMS.DescriptionPhone": "enroll secondFactor", "InitMFAU2F.Title": "enroll secondFactorMethod",
    "InitMFAU2F.RegisterTokenButtonText": "enroll secondFactorMethod", "PasswordlessPrompt.Title": "enroll",
    "PasswordlessRegistration.Title": "enroll", "PasswordlessRegistration.RegisterTokenButtonText": "enroll",
    "PasswordlessPrompt.DescriptionInit": "enroll device", "Login.RegisterButtonText": "enroll",
    "InitMFADone.Title": "secondFactor verify", "InitMFAOTP.Title": "secondFactor verify",
    "InitMFAOTPSMS.Title": "secondFactor verify", "VerifyMFAOTP.Title": "secondFactor verify",
    "VerifyMFAOTP.Description": "secondFactor verify", "VerifyOTP.Title": "secondFactor verify",
    "VerifyOTP.Description": "secondFactor verify", "VerifyMFAU2F.Title": "secondFactor verify",
    "VerifyMFAU2F.ValidateTokenButtonText": "secondFactor verify", "InitMFAPrompt.Description": "secondFactor",
    "Errors.User.MFA.NoProviders": "secondFactor",
    "InitMFAPrompt.Provider0": "secondFactorMethod", "InitMFAPrompt.Provider1": "secondFactorMethod device",
    "InitMFAPrompt.Provider3": "secondFactorMethod", "MFAProvider.Provider0": "secondFactorMethod",
    "MFAProvider.Provider1": "secondFactorMethod device", "MFAProvider.Provider3": "secondFactorMethod",
    "InitMFAU2F.Description": "secondFactorMethod", "InitMFAU2F.TokenNameLabel": "secondFactorMethod device",
    "PasswordlessRegistration.TokenNameLabel": "device", "InitMFAOTPSMS.PhoneLabel": "device",
    "DeviceAuth.Title": "device",
    "DeviceAuth.Action.GrantDevice": "device", "PasswordlessRegistrationDone.Description": "device",
    "EmailVerification.Title": "verify", "EmailVerificationDone.Title": "verify",
    "EmailVerificationDone.Description": "verify", "InitUser.Description": "verify",
}

ZITADEL_LOGIN = {
    "idp.orSignInWith": "signIn", "idp.title": "signIn", "idp.signInWithGoogle": "signIn", "ldap.title": "signIn",
    "idp.loginSuccess.title": "signIn", "signedin.description": "signIn",
    "ldap.username": "user", "loginname.title": "user", "ldap.required.username": "user",
    "ldap.password": "password", "password.verify.title": "password", "password.verify.description": "password",
    "register.methods.password": "password", "passkey.verify.usePassword": "password",
    "password.change.title": "newPassword", "password.set.title": "newPassword",
    "password.change.required.newPassword": "newPassword",
    "password.set.required.newPassword": "newPassword", "password.change.description": "newPassword",
    "loginname.description": "credentials", "ldap.description": "credentials",
    "otp.verify.totpDescription": "code", "otp.verify.smsDescription": "code", "otp.verify.emailDescription": "code",
    "otp.verify.resendCode": "code", "otp.verify.noCodeReceived": "code", "password.set.codeSent": "code",
    "verify.verify.description": "code verify", "device.usercode.description": "code device",
    "device.usercode.title": "code device", "otp.set.smsDescription": "code", "otp.set.emailDescription": "code",
    "error.sessionExpired": "expired", "accounts.expired": "expired",
    "error.failedLoading": "error", "signedin.error.title": "error", "signedin.error.description": "error",
    "idp.loginError.title": "error", "idp.loginError.description": "error",
    "*.submit": "continue", "signedin.continue": "continue", "mfa.set.skip": "continue", "passkey.set.skip": "continue",
    "device.request.deny": "decline", "device.request.submit": "accept",
    "authenticator.title": "choose", "authenticator.description": "choose", "mfa.verify.description": "choose",
    "mfa.set.description": "choose secondFactor", "register.selectMethod": "choose", "accounts.description": "choose",
    "mfa.set.title": "enroll secondFactor", "otp.set.title": "enroll secondFactor",
    "u2f.set.title": "enroll secondFactor",
    "passkey.set.title": "enroll secondFactorMethod", "verify.setupAuthenticator": "enroll",
    "u2f.set.description": "enroll device",
    "otp.verify.title": "secondFactor verify", "u2f.verify.title": "secondFactor verify",
    "mfa.verify.noResults": "secondFactor",
    "passkey.verify.title": "secondFactorMethod", "register.methods.passkey": "secondFactorMethod",
    "passkey.set.info.description": "secondFactorMethod", "otp.set.totpDescription": "secondFactorMethod",
    "passkey.verify.description": "device", "passkey.set.description": "device",
    "u2f.verify.description": "device verify",
    "mfa.verify.title": "verify", "verify.verify.title": "verify", "verify.successTitle": "verify",
    "device.request.title": "device",
}

ORY_ELEMENTS = {
    "identities.messages.1010001": "signIn", "identities.messages.1010002": "signIn",
    "identities.messages.1010017": "signIn",
    "identities.messages.1010022": "signIn password", "identities.messages.1070013": "signIn code",
    "identities.messages.1010015": "signIn code", "login.title": "signIn", "registration.login-button": "signIn",
    "login.subtitle": "signIn", "identities.messages.1070014": "signIn credentials",
    "property.username": "user", "property.phone": "device", "property.identifier": "user",
    "card.header.parts.identifier-first": "user",
    "identities.messages.1070001": "password", "property.password": "password", "two-step.password.title": "password",
    "two-step.password.description": "password", "card.header.parts.password.login": "password",
    "identities.messages.4000039": "newPassword", "settings.password.title": "newPassword",
    "settings.password.description": "newPassword",
    "identities.messages.4000006": "wrong credentials", "identities.messages.4000008": "wrong",
    "identities.messages.4000016": "wrong", "identities.messages.4010008": "wrong",
    "identities.messages.4040003": "wrong",
    "identities.messages.4060004": "wrong", "identities.messages.4060006": "wrong",
    "identities.messages.4070001": "wrong",
    "identities.messages.4070006": "wrong", "identities.messages.4000043": "wrong",
    "identities.messages.4000044": "wrong",
    "identities.messages.4010009": "wrong credentials", "identities.messages.4000040": "wrong",
    "identities.messages.4000041": "wrong",
    "identities.messages.4010011": "locked", "identities.messages.4000010": "locked",
    "identities.messages.4010001": "expired", "identities.messages.4040001": "expired",
    "identities.messages.4050001": "expired",
    "identities.messages.4060005": "expired", "identities.messages.4070005": "expired",
    "identities.messages.4000045": "expired",
    "error.title.what-happened": "error", "error.footer.text": "error", "settings.messages.toast-title.error": "error",
    "identities.messages.4060002": "error", "identities.messages.4070003": "error",
    "identities.messages.1010006": "code", "identities.messages.1070011": "code",
    "identities.messages.1070006": "code verify",
    "identities.messages.1070008": "code", "identities.messages.1010019": "code", "identities.messages.1010023": "code",
    "identities.messages.1010014": "code", "identities.messages.1010025": "code", "card.header.parts.code": "code",
    "login.code.subtitle": "code", "login.code.subtitle.sms": "code", "login.totp.subtitle": "code",
    "two-step.code.description": "code", "two-step.code.title": "code", "property.code": "code",
    "identities.messages.1070010": "code", "identities.messages.1010007": "code", "two-step.totp.description": "code",
    "identities.messages.1010009": "continue", "identities.messages.1010010": "continue",
    "identities.messages.1010013": "continue",
    "identities.messages.1040003": "continue", "identities.messages.1070009": "continue",
    "identities.messages.1010008": "continue secondFactorMethod",
    "consent.title": "accept", "consent.subtitle": "accept", "consent.scope.offline_access.description": "staySignedIn",
    "card.footer.select-another-method": "choose", "login.2fa.method.go-back": "choose",
    "login.subtitle-aal2": "choose secondFactor", "identities.messages.1040009": "choose credentials",
    "identities.messages.1060006": "choose",
    "identities.messages.1050012": "enroll secondFactorMethod",
    "identities.messages.1050019": "enroll secondFactorMethod",
    "identities.messages.1040004": "enroll secondFactorMethod",
    "identities.messages.1040007": "enroll secondFactorMethod",
    "identities.messages.1050008": "enroll", "identities.messages.4000046": "enroll",
    "login.title-aal2": "secondFactor", "identities.messages.1010004": "secondFactor",
    "settings.lookup_secret.title": "secondFactor",
    "settings.webauthn.info": "secondFactor",
    "identities.messages.1010011": "secondFactorMethod signIn",
    "identities.messages.1010021": "secondFactorMethod signIn",
    "identities.messages.1010024": "secondFactorMethod signIn",
    "identities.messages.1010012": "secondFactorMethod device",
    "card.header.parts.passkey": "secondFactorMethod", "card.header.parts.webauthn": "secondFactorMethod",
    "card.header.parts.totp": "secondFactorMethod", "two-step.webauthn.title": "secondFactorMethod",
    "two-step.webauthn.description": "secondFactorMethod", "two-step.totp.title": "secondFactorMethod",
    "settings.totp.title": "secondFactorMethod", "settings.passkey.title": "secondFactorMethod",
    "two-step.passkey.title": "secondFactorMethod", "identities.messages.1050013": "secondFactorMethod",
    "login.webauthn.subtitle": "secondFactorMethod device", "settings.webauthn.title": "secondFactorMethod",
    "settings.deviceauthn.title": "device", "settings.deviceauthn.description": "device",
    "settings.deviceauthn.info": "device",
    "identities.messages.4000042": "device",
    "identities.messages.1010005": "verify", "identities.messages.1010003": "verify", "verification.title": "verify",
    "identities.messages.1080002": "verify", "identities.messages.1080005": "verify", "captcha.error": "verify",
    "login.subtitle-refresh": "verify",
}

WSO2 = {
    "Sign.in": "signIn", "login": "signIn", "device.flow.sign.in": "signIn", "log.in.as": "signIn",
    "please.try.login.again": "signIn",
    "Username": "user", "Enter.your.username.here": "user", "Username.cannot.be.empty": "user",
    "Username.is.missing": "user", "Username.missing": "user", "forgot.username": "user", "Pick.username": "user",
    "Password": "password", "password": "password", "Password.cannot.be.empty": "password",
    "Enter.new.password": "newPassword", "Confirm.password": "newPassword", "confirm.password": "newPassword",
    "Reset.Password": "newPassword",
    "login.fail.message": "wrong credentials", "password.fail.message": "wrong", "error.code.incorrect": "wrong",
    "error.wrong.code": "wrong", "Invalid.code": "wrong", "Cannot.process.submitted.confirmation.code": "wrong",
    "emailusername.fail.message": "wrong", "Invalid.reset.link": "wrong", "invalid.request": "wrong",
    "SW52YWxpZCBhbnN3ZXI_": "wrong", "Passwords.did.not.match.please.try.again": "wrong", "password.mismatch": "wrong",
    "error.user.account.locked": "locked", "error.user.account.temporarly.locked": "locked",
    "error.user.lock.temporarly": "locked", "error.user.locked": "locked",
    "error.code.expired.resend": "expired", "error.token.expired": "expired",
    "error": "error", "authentication.error": "error", "internal.error.occurred": "error", "error.fail": "error",
    "error.retry": "error", "error.when.processing.authentication.request": "error",
    "Code": "code", "auth.totp": "code", "enter.code": "code", "enter.code.sent": "code", "please.enter.code": "code",
    "error.enter.code": "code", "get.verification.code": "code", "enter.verification.code.got.by.device": "code",
    "Next": "continue", "next": "continue", "continue": "continue", "authenticate": "continue", "Skip": "continue",
    "allow": "accept", "approve": "approve", "approve.always": "approve", "approve.once": "approve",
    "Cancel": "decline", "cancel": "decline", "deny": "decline", "deny.login": "decline",
    "choose.other.option": "choose", "other.login.options": "choose",
    "enable.totp": "enroll secondFactorMethod",
    "otp.verification": "verify",
}

OPENAM = {
    "amAuthUI.LogIn": "signIn", "amAuthUI.htmlTitle_Login": "signIn", "amAuthMembership.Login": "signIn",
    "amAuthUI.gotoLoginAfterFail": "signIn", "amAuth.submit": "signIn", "amAuthUI.Submit": "signIn",
    "amAuth.UserId": "user", "amAuthUI.nouser.name": "user", "amAuth.noUserName": "user",
    "amAuthMembership.noUserNameError": "user", "amAuth.NoUser": "user", "*.NoUser": "user",
    "amAuthUI.no.password": "password", "amAuthMembership.noPasswordError": "password",
    "amAuthMembership.noConfirmationError": "newPassword", "amAuthUI.missing.confirm.passwd": "newPassword",
    "*.PasswordReset": "newPassword", "amAuthAD.inPwdQual": "newPassword", "amAuthLDAP.inPwdQual": "newPassword",
    "amAuth.103": "wrong", "amAuth.InvalidUP": "wrong credentials", "*.InvalidUP": "wrong credentials",
    "amAuth.invalidPasswd": "wrong", "*.CredInvalid": "wrong credentials", "*.PInvalid": "wrong",
    "*.PwdInvalid": "wrong",
    "amAuthUI.invalid.password": "wrong", "amAuthUI.htmlTitle_InvalidPassword": "wrong",
    "amAuth.invalidDomain": "wrong",
    "amAuthDataStore.authFailed": "wrong credentials", "amAuthJDBC.loginFailed": "wrong credentials",
    "amAuthUI.password.mismatch": "wrong", "*.PasswdMismatch": "wrong", "amAuth.invalidChars": "wrong",
    "amAuthUI.htmlTitle_InvalidDomain": "wrong", "amAuth.108": "wrong", "amAuthUI.invalidauthlevel": "wrong",
    "amAuth.112": "locked", "amAuth.accountLockedOut": "locked", "amAuth.lockOut": "locked",
    "amAuth.lockOutWarning": "locked",
    "amAuth.userInactive": "locked", "amAuth.104": "locked", "amAuth.userLoginDisabled": "locked",
    "*.AcctInactive": "locked", "amAuthUI.usernot.active": "locked", "amAuthUI.htmlTitle_UserInactive": "locked",
    "amAuth.lockOutEmailMsg": "locked", "amAuth.123": "locked",
    "amAuth.101": "expired", "amAuth.accountExpired": "expired", "amAuthUI.account.expired": "expired",
    "amAuthUI.htmlTitle_AccountExpired": "expired", "*.GraceLogins": "expired", "*.PasswordExp": "expired",
    "*.TimeBeforeExpiration": "expired", "amAuthUI.session.timeout": "expired", "amAuth.loginTimeout": "expired",
    "amAuthUI.htmlTitle_SessionTimeOut": "expired",
    "amAuth.error": "error", "amAuth.102": "error", "amAuthUI.internal.auth.error": "error",
    "amAuthUI.htmlTitle_AuthError": "error", "amAuthUI.config.error": "error", "amAuthUI.profile.error": "error",
    "amAuth.loginFailed": "error", "amAuth.107": "error", "amAuthUI.auth.failed": "error",
    "amAuthUI.authentication.failed": "error", "amAuthUI.htmlTitle_AuthFailed": "error",
    "*.authFailed": "error",
    "amAuthUI.Continue": "continue", "amAuthMembership.Next": "continue",
    "amAuthUI.Agree": "accept", "amAuthUI.doyou.agree": "accept",
    "amAuthUI.Cancel": "decline", "amAuthMembership.Cancel": "decline", "amAuthUI.Disagree": "decline",
    "amAuthUI.disclaimer.declined": "decline", "amAuth.loginDenied": "decline",
    "amAuthMembership.Register": "enroll", "amAuthAuthenticatorOATH.outOfSync": "device",
    "amAuthHOTP.send.success": "code", "amAuthHOTP.messageContent": "code", "amAuthHOTP.messageSubject": "code",
    "amAuthSecurID.SecurIDPasscodeNull": "code",
    "amAuthAuthenticatorOATH.TOTP": "secondFactorMethod", "amAuthOATH.TOTP": "secondFactorMethod",
    "amAuthAuthenticatorOATH.HOTP": "secondFactorMethod", "amAuthOATH.HOTP": "secondFactorMethod",
    "amAuthHOTP.sms": "secondFactorMethod",
}

GLUU = {
    "login.login": "signIn", "*.pleaseLoginHere": "signIn", "login.pageTitle": "signIn",
    "org.jboss.seam.NotLoggedIn": "signIn",
    "oxpush.loginLabel": "signIn", "casa.login.title": "signIn",
    "*.username": "user", "login.loginAsAnother": "user",
    "*.password": "password",
    "login.errorMessage": "wrong credentials", "device.authorization.invalid.user.code": "wrong",
    "casa.fido2.invalid_state_error": "wrong", "cert.youSelectedInvalid": "wrong",
    "consent.gather.invalid.step": "wrong",
    "casa.cert.error.not_valid": "wrong", "javax.faces.component.UISelectOne.INVALID": "wrong",
    "device.authorization.brute.forcing.msg": "locked",
    "device.authorization.expired.code.msg": "expired", "cert.youHaveExpired": "expired",
    "consent.gather.invalid.session": "expired",
    "error.errorEncountered": "error", "error.unexpectedError": "error", "casa.fido2.generic_error": "error",
    "org.jboss.seam.loginFailed": "error", "login.failedToAuthenticate": "error",
    "*.rememberMe": "staySignedIn",
    "casa.alternative": "choose", "casa.email.choose": "choose", "casa.sms.choose": "choose",
    "login.selectAccount": "choose",
    "casa.enter_code": "code", "otp.entercode": "code", "otp_sms.verificationcode": "code", "casa.email.enter": "code",
    "casa.sms.enter": "code", "otp.otpCode": "code", "otp.getcode": "code", "casa.otp.text": "code",
    "casa.smpp.text": "code", "casa.twilio_sms.text": "code", "otp_sms.codesent": "code",
    "device.authorization.code.inputbox.label": "code device", "casa.smpp.title": "code",
    "device.authorization.confirm.button": "continue", "casa.cert.precontinue": "continue",
    "authorize.allow": "accept", "authorize.doNotAllow": "decline", "casa.cancel": "decline",
    "consent.gather.declined": "decline", "device.authorization.access.denied.msg": "decline",
    "casa.super_gluu.push_approve": "approve", "casa.super_gluu.text": "approve",
    "casa.super_gluu.not_received_1": "approve",
    "oxpush.waitingForUser": "approve",
    "casa.snd_step": "secondFactor", "otp.verification": "secondFactor", "otp_sms.verification": "secondFactor",
    "fido2.verification.stepverification": "secondFactor", "cas2login.loginHeader": "secondFactor",
    "casa.fido2.text": "secondFactorMethod", "casa.u2f.text": "secondFactorMethod",
    "casa.otp.title": "secondFactorMethod",
    "fido2.verification.insertkey": "secondFactorMethod", "casa.email_2fa.title": "secondFactorMethod",
    "otp.usedevice": "device", "otp_sms.usedevice": "device", "fido2.verification.usedevice": "device",
    "device.authorization.title": "device", "device.authorization.subtitle": "device",
    "casa.duo.title": "credentials", "casa.duo.text": "credentials", "casa.stytch.title": "credentials",
}

SIMPLESAMLPHP = {
    "{login:login_button}": "signIn", "{authYubiKey:yubikey:header}": "signIn secondFactorMethod",
    "{core:short_sso_interval:retry}": "signIn", "{disco:login_at}": "signIn",
    "{login:user_pass_header}": "credentials", "{login:user_pass_text}": "credentials",
    "{login:username}": "user", "{login:remember_username}": "user staySignedIn",
    "{login:password}": "password", "{login:error_nopassword}": "password", "{login:help_header}": "password",
    "{login:error_wrongpassword}": "wrong credentials", "{errors:title_WRONGUSERPASS}": "wrong credentials",
    "{errors:descr_WRONGUSERPASS}": "wrong", "{errors:title_NOTVALIDCERT}": "wrong",
    "{errors:title_INVALIDCERT}": "wrong",
    "{errors:descr_INVALIDCERT}": "wrong", "{errors:descr_NOTVALIDCERT}": "wrong", "{errors:title_BADREQUEST}": "wrong",
    "{expirycheck:expwarning:no_access_to}": "expired", "{expirycheck:expwarning:warning_header}": "expired",
    "{expirycheck:expwarning:warning_header_today}": "expired", "{expirycheck:expwarning:warning}": "expired",
    "{expirycheck:expwarning:warning_today}": "expired", "{expirycheck:expwarning:expiry_date_text}": "expired",
    "{authX509:X509warning:warning_header}": "expired", "{authX509:X509warning:warning}": "expired",
    "{login:error_header}": "error", "{errors:error_header}": "error", "{errors:report_header}": "error",
    "{errors:report_submit}": "error", "{errors:errorreport_header}": "error", "{status:some_error_occurred}": "error",
    "{errors:title_UNHANDLEDEXCEPTION}": "error", "{errors:title_CONFIG}": "error",
    "{errors:title_AUTHSOURCEERROR}": "error",
    "{errors:descr_CREATEREQUEST}": "error", "{errors:descr_LOGOUTREQUEST}": "error",
    "{errors:title_CREATEREQUEST}": "error",
    "{errors:title_LOGOUTREQUEST}": "error", "{errors:title_PROCESSASSERTION}": "error",
    "{login:next}": "continue", "{general:yes_continue}": "continue accept", "{general:yes}": "continue accept",
    "{consent:consent:yes}": "accept continue", "{expirycheck:expwarning:btn_continue}": "continue",
    "{authX509:X509warning:proceed}": "continue",
    "{consent:consent:consent_header}": "accept", "{consent:consent:consent_accept}": "accept",
    "{general:no_cancel}": "decline", "{general:no}": "decline", "{consent:consent:no}": "decline",
    "{consent:consent:abort}": "decline", "{consent:consent:noconsent_title}": "decline",
    "{consent:consent:noconsent_text}": "decline", "{errors:title_USERABORTED}": "decline",
    "{errors:descr_USERABORTED}": "decline",
    "{login:remember_me}": "staySignedIn", "{general:remember}": "staySignedIn",
    "{consent:consent:remember}": "staySignedIn",
    "{disco:remember}": "staySignedIn choose", "{login:remember_organization}": "staySignedIn",
    "{multiauth:multiauth:select_source_header}": "choose", "{multiauth:multiauth:select_source_text}": "choose",
    "{disco:selectidp}": "choose", "{disco:selectidp_full}": "choose", "{disco:select}": "choose",
    "{login:select_home_org}": "choose", "{login:change_home_org_button}": "choose",
    "{authYubiKey:yubikey:intro}": "secondFactorMethod code",
}

LEMONLDAP = {
    "connect": "signIn", "login": "signIn", "PE9": "signIn", "PE87": "signIn", "openSSOSession": "signIn",
    "user": "user", "PE40": "wrong user", "PE4": "user", "PE70": "user",
    "password": "password", "pwd": "password", "enterPassword": "password", "PE67": "password",
    "missingPassword": "password",
    "password2f": "password", "PE74": "password", "currentPwd": "password", "passwordverify": "password",
    "newPassword": "newPassword", "confirmPwd": "newPassword", "PE71": "newPassword", "changePwd": "newPassword",
    "PE25": "newPassword", "pwdChange": "newPassword", "PE27": "newPassword",
    "PE5": "wrong credentials", "PE3": "wrong credentials", "PE81": "wrong", "PE39": "wrong", "PE96": "wrong",
    "PE34": "wrong", "PE10": "wrong", "badCode": "wrong", "PE76": "wrong", "PE37": "wrong", "PE44": "wrong",
    "PE83": "wrong secondFactorMethod", "u2fFailed": "wrong secondFactorMethod",
    "webAuthnFailed": "wrong secondFactorMethod",
    "csrfError": "wrong", "PE53": "wrong", "PE97": "wrong",
    "PE21": "locked", "PE86": "locked",
    "PE22": "expired", "PE1": "expired", "PE82": "expired", "PE32": "expired", "PE33": "expired",
    "pwdWillExpire": "expired",
    "ppGrace": "expired", "authRemaining": "expired", "expired2Fremoved": "expired", "oneExpired2Fremoved": "expired",
    "PE24": "error", "errorMsg": "error", "serverError": "error", "PE7": "error", "PE45": "error", "PE51": "error",
    "PE56": "error", "PE58": "error", "PE61": "error", "PE106": "error", "PE8": "error",
    "code": "code", "ext2f": "code", "rest2f": "code", "enterTotpCode": "code", "enterExt2fCode": "code",
    "enterMail2fCode": "code", "enterRadius2fCode": "code", "enterRest2fCode": "code", "mail2f": "code",
    "totpMissingCode": "code", "missingCode": "code", "resendCode": "code", "genericCheckCode": "code",
    "totpRegisterCode": "code enroll", "genericRegisterCode": "code enroll", "mail.mail2fSubject": "code",
    "yourNewTotpKey": "code enroll", "touchU2fDeviceOrEnterTotp": "code secondFactorMethod",
    "continue": "continue", "submit": "signIn",
    "accept": "accept", "PE42": "accept", "openidAp": "accept", "oidcConsent": "accept", "autoAccept": "accept",
    "cancel": "decline", "refuse": "decline",
    "stayConnected": "staySignedIn", "rememberChoice": "staySignedIn",
    "choose2f": "choose secondFactor", "selectIdP": "choose", "chooseApp": "choose", "PE38": "choose",
    "register": "enroll", "generic2fwelcome": "enroll secondFactor", "2fRegRequired": "enroll secondFactor",
    "genericRegisterRegister": "enroll", "totpRegisterName": "enroll device",
    "webauthn2fWelcome": "enroll secondFactorMethod",
    "webAuthnRegisterFailed": "enroll secondFactorMethod", "webAuthnRegisterInProgress": "enroll secondFactorMethod",
    "PE103": "secondFactor", "PE88": "secondFactor", "sfaManager": "secondFactor",
    "2FDeviceNotFound": "secondFactor device",
    "maxNumberOf2FDevicesReached": "secondFactor device",
    "totp2f": "secondFactorMethod", "u2f": "secondFactorMethod", "webauthn2f": "secondFactorMethod",
    "yubikey2f": "secondFactorMethod", "utotp2f": "secondFactorMethod", "enterYubikey": "secondFactorMethod",
    "clickOnYubikey": "secondFactorMethod", "useYubikey": "secondFactorMethod",
    "touchU2fDevice": "secondFactorMethod device",
    "webAuthnRequired": "secondFactorMethod", "webAuthnBrowserInProgress": "secondFactorMethod",
    "noTOTPFound": "secondFactorMethod", "noU2FKeyFound": "secondFactorMethod",
    "webAuthnNoDevice": "device secondFactorMethod", "webauthnAlreadyRegistered": "device", "u2fWelcome": "device",
    "verify": "verify", "genericverify": "verify", "genericRegisterVerify": "verify", "yourKeyIsVerified": "verify",
    "enterCred": "credentials", "webAuthnBrowserFailed": "error",
}

PRIVACYIDEA = {
    "wrong otp value": "wrong", "wrong otp pin": "wrong", "OTP verification failed.": "wrong",
    "Response did not match the challenge.": "wrong", "Invalid user.": "wrong", "The token is not valid.": "wrong",
    ". previous otp used again": "wrong", "Could not verify data in request!": "verify",
    "This action is not possible, since the token is locked": "locked",
    "Authentication failure. The token type {token_type} is disabled.": "locked",
    "Authentication failure. Your token has expired:": "expired",
    "The challenge of a token during the authentication process is expired.": "expired",
    "please enter otp: ": "code", "Enter the OTP from the SMS:": "code", "Enter the OTP from the Email": "code",
    "Enter the code to log in": "code", "Please enter a valid OTP value of the new token.": "code",
    "Please scan the QR code and enter the OTP value!": "code enroll",
    "To resync your token, please enter the next OTP value": "code",
    "Please confirm the authentication on your mobile device!": "approve device",
    "Do you want to confirm the login?": "approve", "PUSH: Send a push notification to a smartphone.": "approve",
    "PUSH Token": "approve secondFactorMethod",
    "Please confirm with your WebAuthn token": "secondFactorMethod",
    "Please confirm with your WebAuthn token ({0!s})": "secondFactorMethod",
    "TOTP: Time based One Time Passwords.": "secondFactorMethod",
    "HOTP: Event based One Time Passwords.": "secondFactorMethod",
    "SMS: Send a One Time Password to the users mobile phone.": "secondFactorMethod code",
    "EMail: Send a One Time Password to the users email address.": "secondFactorMethod code",
    "Generic WebAuthn Token": "secondFactorMethod", "SMS Token": "secondFactorMethod",
    "EMail Token": "secondFactorMethod",
    "Authentication failure. Missing Username": "user",
    "Passkey: A secret stored on a device, unlocked with biometrics.": "secondFactorMethod",
    "Please confirm the registration with your passkey!": "enroll secondFactorMethod",
}

LINOTP = {
    "Login": "signIn", "login": "signIn", "Login:": "signIn",
    "Username": "user", "username": "user", "Login Name": "user",
    "Password": "password", "Old password": "password",
    "New password": "newPassword", "Confirm new password": "newPassword", "Change password": "newPassword",
    "Could not find a token for this OTP value.": "wrong", "The entered PINs do not match!": "wrong",
    "Login failed. Reason: %s": "error", "Login Attempts Failed": "error", "LinOTP error ": "error",
    "Error changing password": "error", "An error occurred during password change.": "error",
    "Please enter your otp": "code", "OTP value": "code", "OTP PIN and OTP value": "code", "Get OTP": "code",
    "Enter your username, the OTP PIN and the OTP value.": "code credentials",
    "Scan the challenge and get your OTP:": "code",
    "Scan your challenge and get your OTP:": "code", "Enter PIN": "code", "enter PIN": "code",
    "LinOTP Push Token Login": "approve", "Challenge Response Login": "secondFactor",
    "TOTP Token": "secondFactorMethod", "SMS OTP": "secondFactorMethod", "HOTP": "secondFactorMethod",
    "mOTP - mobile otp": "secondFactorMethod",
}

DJANGO_ALLAUTH = {
    "Sign In": "signIn", "Login": "signIn", "field label|Login": "user", "Sign In Via %(provider)s": "signIn",
    "Send me a sign-in code": "signIn code", "Enter Sign-In Code": "signIn code", "Sign-In Code": "signIn code",
    "Successfully signed in as %(name)s.": "signIn",
    "Username": "user", "Username or email": "user", "Username or phone": "user", "Username, email or phone": "user",
    "Username (optional)": "user", "Email or phone": "user",
    "In case you forgot, your username is %(username)s.": "user",
    "Password": "password", "Current Password": "password", "Enter your password:": "password",
    "Please type your current password.": "password", "Use your password": "password",
    "New Password": "newPassword", "New Password (again)": "newPassword", "Password (again)": "newPassword",
    "Set Password": "newPassword", "Change Password": "newPassword",
    "You must type the same password each time.": "newPassword",
    "The username and/or password you specified are not correct.": "wrong credentials",
    "The email address and/or password you specified are not correct.": "wrong credentials",
    "The phone number and/or password you specified are not correct.": "wrong credentials",
    "Incorrect password.": "wrong", "Incorrect code.": "wrong", "Invalid login.": "wrong credentials",
    "Invalid token.": "wrong", "Bad Token": "wrong", "Invalid or expired key.": "wrong expired",
    "Invalid profile data": "wrong", "The password reset token was invalid.": "wrong",
    "This account is inactive.": "locked", "This account is currently inactive.": "locked",
    "Account Inactive": "locked",
    "Too many failed login attempts. Try again later.": "locked",
    "This email confirmation link expired or is invalid.*": "expired",
    "We've sent a code to %(recipient)s. The code expires shortly, so please enter it soon.": "expired code",
    "Error": "error", "An error occurred while attempting to login via your third-party account.": "error",
    "Third-Party Login Failure": "error",
    "Code": "code", "Authenticator code": "code", "Enter an authenticator code:": "code", "Request Code": "code",
    "Request new code": "code", "A sign-in code has been sent to %(recipient)s.": "code",
    "A verification code has been sent to %(phone)s.": "code",
    "Enter Email Verification Code": "code verify", "Enter Phone Verification Code": "code verify",
    "Your account is protected by two-factor authentication. Please enter an authenticator code:": "code secondFactor",
    "Enter the code displayed on your device.": "code device", "Enter Device Code": "code device",
    "Continue": "continue", "Confirm": "accept", "Confirm Access": "accept", "Authorize": "accept",
    "Grant permissions": "accept", "%(client_name)s wants to access your %(site_name)s account.": "accept",
    "Cancel": "decline", "Deny": "decline", "Login Cancelled": "decline", "Device Denied": "decline device",
    "Remember Me": "staySignedIn", "Stay Signed In": "staySignedIn", "Trust this Browser?": "staySignedIn",
    "If you choose to trust this browser, you will not be asked*": "staySignedIn",
    "Trust for %(period)s": "staySignedIn", "Don't Trust": "staySignedIn decline",
    "Alternative options": "choose", "Other options": "choose", "Other sign-in options": "choose",
    "Use authenticator app or code": "choose", "Please select only one.": "choose",
    "Activate": "enroll", "Activate Authenticator App": "enroll secondFactorMethod",
    "Add Security Key": "enroll secondFactorMethod",
    "Create Passkey": "enroll secondFactorMethod", "Authenticator App Activated": "enroll secondFactorMethod",
    "To protect your account with two-factor authentication, scan the QR code*": "enroll secondFactor",
    "Two-Factor Authentication": "secondFactor", "MFA": "secondFactor",
    "You cannot activate two-factor authentication until you have verified your email address.": "secondFactor",
    "Authenticator App": "secondFactorMethod", "Security key": "secondFactorMethod",
    "Security Keys": "secondFactorMethod",
    "Use a security key": "secondFactorMethod", "Passkey": "secondFactorMethod", "WebAuthn": "secondFactorMethod",
    "TOTP Authenticator": "secondFactorMethod", "Sign in with a passkey": "secondFactorMethod signIn",
    "Confirm Device": "device", "Phone": "device", "Device Authorized": "device",
    "Please confirm the code shown on your %(client_name)s to authorize this device.": "device",
    "You successfully authorized your %(client_name)s device.": "device",
    "Verify Your Email Address": "verify", "Email Verification": "verify", "Phone Verification": "verify",
    "Verified": "verify", "Re-send Verification": "verify",
    "Client credentials": "credentials",
}

DJANGO_TWO_FACTOR = {
    "Login": "signIn", "Enter your credentials.": "credentials",
    "Entered token is not valid.": "wrong", "The YubiKey could not be verified.": "wrong secondFactorMethod",
    "Your session has timed out. Please login again.": "expired",
    "Permission Denied": "error",
    "Token": "code", "Please enter the token generated by your token generator.": "code",
    "Enter the token generated by your token generator": "code",
    "We sent you a text message, please enter the token we sent.": "code",
    "We sent you an email, please enter the token we sent.": "code",
    "We've sent a token to your phone number. Please enter the token you've received.": "code",
    "We are calling your phone right now, please enter the digits you hear.": "code",
    "Then, enter the token generated by the app.": "code", "Use Backup Token": "code",
    "Next": "continue", "Cancel": "decline", "Back": "decline",
    "Don't ask again on this device for %(days)i days": "staySignedIn device",
    "Don't ask again on this device for %(hours)i hours": "staySignedIn device",
    "Don't ask again on this device for %(minutes)i minutes": "staySignedIn device",
    "Please select which authentication method you would like to use.": "choose",
    "Or, alternatively, use one of your other authentication methods:": "choose",
    "Or, alternatively, use one of your backup phones:": "choose device",
    "Method": "choose",
    "Enable Two-Factor Authentication": "enroll secondFactor", "Add Phone Number": "enroll device",
    "Add Backup Phone": "enroll device",
    "Congratulations, you've successfully enabled two-factor authentication.": "enroll secondFactor",
    "Two-factor authentication is not enabled for your account.*": "secondFactor enroll",
    "The page you requested, enforces users to verify using two-factor*": "secondFactor",
    "Token generator": "secondFactorMethod", "YubiKey": "secondFactorMethod", "WebAuthn": "secondFactorMethod",
    "WebAuthn Token": "secondFactorMethod", "Text message": "secondFactorMethod", "Text Message": "secondFactorMethod",
    "Phone call": "secondFactorMethod", "Phone Call": "secondFactorMethod",
    "Authenticate using a WebAuthn-compatible device": "secondFactorMethod device",
    "Please use your WebAuthn-compatible device to authenticate.": "secondFactorMethod device",
    "Please use your Yubikey device.": "secondFactorMethod device",
    "Use your Yubikey device": "secondFactorMethod device",
    "However, it might happen that you don't have access to your primary token device.*": "device",
    "If you don't have any device with you, you can access your account using backup tokens.": "device",
}

FLASK_SECURITY = {
    "Sign In": "signIn", "Login": "signIn", "Login now": "signIn", "Please log in to access this page.": "signIn",
    "You must sign in to view this resource.": "signIn", "Sign in with a passkey": "signIn secondFactorMethod",
    "Sign In With A Passkey": "signIn secondFactorMethod", "Sign In With a Passkey": "signIn secondFactorMethod",
    "Use a Passkey to Sign In": "signIn secondFactorMethod",
    "Username": "user", "Username not provided": "user", "Specified user does not exist": "user",
    "Password": "password", "Password not provided": "password", "Verify Password": "password",
    "New Password": "newPassword", "Retype Password": "newPassword", "Change Password": "newPassword",
    "Reset Password": "newPassword", "Reset password": "newPassword",
    "Invalid password": "wrong", "Invalid code": "wrong", "Invalid login token.": "wrong",
    "Invalid email address": "wrong",
    "Invalid reset password token.": "wrong", "Invalid confirmation token.": "wrong", "Recovery code invalid": "wrong",
    "Password or code submitted is not valid": "wrong", "Passwords do not match": "wrong",
    "Password does not match": "wrong",
    "Authentication failed - identity or password/passcode invalid": "wrong credentials",
    "Marked method is not valid": "wrong", "Requested method is not valid": "wrong",
    "Value entered is not valid for the field": "wrong",
    "Account is disabled.": "locked",
    "This code will expire in %(within)s.": "expired", "This code/link will expire in %(within)s.": "expired",
    "This link will expire in %(within)s.": "expired",
    "Error(s)": "error", "Failed to send code. Please try again later": "error",
    "Authentication Code": "code", "Passcode": "code", "Code or Password": "code", "Verification Code": "code",
    "Send Code": "code", "Submit Code": "code", "Code has been sent": "code", "Code has been sent.": "code",
    "enter numeric code": "code", "Request one-time code be sent": "code", "Enter Recovery Code": "code",
    "Two-Factor authentication code": "code secondFactor", "Use this code to sign in: %(code)s": "code",
    "Please enter your authentication code generated via: %(method)s": "code",
    "Enter code here to complete setup": "code enroll", "Enter code to complete setup": "code enroll",
    "The code for authentication was sent to your email address": "code",
    "Submit": "signIn", "Remember Me": "staySignedIn",
    "Select Two-Factor Method": "choose secondFactor", "Select": "choose", "Available Methods": "choose",
    "Change Method": "choose", "Available Second Factor Methods:": "choose secondFactor",
    "Two-Factor Setup": "enroll secondFactor",
    "Setup a New Passkey": "enroll secondFactorMethod", "Passkey Setup": "enroll secondFactorMethod",
    "Set up using an authenticator app (e.g. google, lastpass, authy)": "enroll secondFactorMethod",
    "Set up using SMS": "enroll secondFactorMethod", "Set up using email": "enroll", "Register": "enroll",
    "Two-Factor Authentication": "secondFactor", "Two-Factor Login": "secondFactor signIn",
    "Two-Factor Rescue": "secondFactor",
    "Two-Factor authentication adds an extra layer of security to your account": "secondFactor",
    "Use a Passkey as a Second Factor": "secondFactor secondFactorMethod",
    "Use as a secondary authentication factor": "secondFactor",
    "Google Authenticator": "secondFactorMethod", "SMS": "secondFactorMethod", "Passkeys": "secondFactorMethod",
    "passkey": "secondFactorMethod", "authenticator": "secondFactorMethod", "Via SMS": "secondFactorMethod",
    "Trouble Accessing Your Account?/Lost Mobile Device?": "device",
    "Reauthenticate": "verify",
}

DJANGO_CAS_SERVER = {
    "Login": "signIn", "Please log in": "signIn", "Connect to the service": "signIn",
    "<h3>Log In Successful</h3>*": "signIn",
    "username": "user", "User": "user", "password": "password",
    "The credentials you provided cannot be determined to be authentic.": "wrong credentials",
    "Invalid login ticket, please try to log in again": "wrong",
    "Remember the identity provider": "staySignedIn",
    "Warn me before logging me into other sites.": "accept",
}


# ---------------------------------------------------------------------------------------------------------------------
# Catalog formats: one reader per format. Each returns plain Python data; none knows about concepts.
# ---------------------------------------------------------------------------------------------------------------------

_PROPERTIES_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _properties_unescape(text: str) -> str:
    """A .properties key or value without its escapes (`\\uXXXX`, `\\t`, `\\:` …)."""
    if "\\" not in text:
        return text
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            if n == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2 : i + 6] or ""):
                out.append(chr(int(text[i + 2 : i + 6], 16)))
                i += 6
                continue
            out.append(_PROPERTIES_ESCAPES.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    # Surrogate pairs written as two \\u escapes.
    return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16")


def read_properties(path: Path) -> dict[str, str]:
    """A Java .properties file: `key=value`, `key: value` or `key value`; `#`/`!` comments; `\\` continues a line."""
    entries: dict[str, str] = {}
    logical: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.lstrip()
        if not pending and (not line or line[0] in "#!"):
            continue
        backslashes = len(line) - len(line.rstrip("\\"))
        if backslashes % 2 == 1:
            pending += line[:-1]
            continue
        logical.append(pending + line)
        pending = ""
    if pending:
        logical.append(pending)
    for line in logical:
        match = re.match(r"((?:[^\\:=\s]|\\.)*)\s*[:=]?\s*(.*)$", line, re.S)
        if not match:
            continue
        key = _properties_unescape(match.group(1))
        entries[key] = _properties_unescape(match.group(2))
    return entries


_C_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
}


def _po_string(token: str) -> str:
    """A quoted gettext string's text."""
    body = token.strip()
    body = body[1:-1] if body.startswith('"') and body.endswith('"') else body
    return re.sub(r"\\(.)", lambda m: _C_ESCAPES.get(m.group(1), m.group(1)), body)


def read_po(path: Path) -> list[tuple[str, str, str]]:
    """A gettext .po/.pot file: (key, msgid, msgstr) per translated, non-fuzzy entry; `key` is `msgctxt|msgid` when a
    context is given. Plural entries give `msgstr[0]`. Obsolete (`#~`) entries and the header are left out."""
    entries = []
    fields: dict[str, str] = {}
    flags: set[str] = set()
    current = None

    def flush():
        if "msgid" in fields and fields["msgid"] and "fuzzy" not in flags:
            text = fields.get("msgstr", fields.get("msgstr[0]", ""))
            key = fields["msgid"] if "msgctxt" not in fields else fields["msgctxt"] + "|" + fields["msgid"]
            entries.append((key, fields["msgid"], text))

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if fields:
                flush()
            fields, flags, current = {}, set(), None
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#,"):
            flags.update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if match:
            if match.group(1) in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
                flush()  # a new entry with no blank line before it
                fields = {}
            current = match.group(1)
            fields[current] = _po_string(match.group(2))
        elif line.startswith('"') and current:
            fields[current] += _po_string(line)
    return entries


def flatten_json(value, prefix: str = "") -> dict[str, str]:
    """Nested JSON objects as dotted keys (`password.verify.title`); only string leaves."""
    flat: dict[str, str] = {}
    if isinstance(value, dict):
        for key, child in value.items():
            flat.update(flatten_json(child, f"{prefix}.{key}" if prefix else key))
    elif isinstance(value, str):
        flat[prefix] = value
    return flat


def read_json(path: Path) -> dict[str, str]:
    """A JSON message catalog, flat or nested."""
    return flatten_json(json.loads(path.read_text(encoding="utf-8")))


def read_xliff(path: Path) -> tuple[str, list[tuple[str, str, str]]]:
    """An XLIFF 1.2 file: its target language and (id, source, target) per unit (target "" when untranslated).
    `<x/>` placeholders become `{x}`."""
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
    root = ET.parse(path).getroot()
    file = root.find("x:file", ns)
    language = file.get("target-language", "") if file is not None else ""

    def text_of(element) -> str:
        if element is None:
            return ""
        parts = [element.text or ""]
        for child in element:
            parts.append("{x}")
            parts.append(child.tail or "")
        return "".join(parts)

    units = []
    for unit in root.iter("{urn:oasis:names:tc:xliff:document:1.2}trans-unit"):
        source = text_of(unit.find("x:source", ns))
        target = unit.find("x:target", ns)
        units.append((unit.get("id", ""), source, text_of(target) if target is not None else ""))
    return language, units


def _yaml_scalar(text: str) -> str:
    """A YAML scalar's text: plain, single- or double-quoted."""
    text = text.strip()
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return json.loads(text)
    return re.sub(r"\s+#.*$", "", text)


def read_yaml(path: Path) -> dict[str, str]:
    """The subset of YAML the ZITADEL catalogs use: nested `key: value` maps by indentation, plain, quoted and `|`/`>`
    block scalars. Keys are dotted paths (`Errors.User.NotFound`)."""
    flat: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        i += 1
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        match = re.match(r"\s*([^:#][^:]*?):(?:\s+(.*))?$", raw)
        if not match:
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        key = match.group(1).strip().strip("'\"")
        path_key = ".".join([k for _, k in stack] + [key])
        value = (match.group(2) or "").strip()
        if value in ("|", ">", "|-", ">-", "|+", ">+"):
            block = []
            while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip(" ")) > indent):
                block.append(lines[i].strip())
                i += 1
            joiner = "\n" if value.startswith("|") else " "
            flat[path_key] = joiner.join(block).strip()
        elif value:
            flat[path_key] = _yaml_scalar(value)
        else:
            stack.append((indent, key))
    return flat


# ---------------------------------------------------------------------------------------------------------------------
# Sources: where each source keeps its files, and which format reader reads them. Each loader yields
# (message key, language code as shipped, text); English comes from the base file or from the msgid/source text.
# ---------------------------------------------------------------------------------------------------------------------


def _suffix_language(path: Path, stem: str) -> str:
    """`login_pt_BR.properties` → `pt_BR`; the base file (`login.properties`) → `en`."""
    name = path.name[: -len(".properties")]
    return name[len(stem) + 1 :] if name.startswith(stem + "_") else "en"


def load_properties_bundles(root: Path, pattern: str, stem_of=lambda path: path.name.split("_")[0].split(".")[0],
                            key_prefix=lambda path: ""):
    for path in sorted(root.glob(pattern)):
        stem = stem_of(path)
        language = _suffix_language(path, stem)
        for key, text in read_properties(path).items():
            yield key_prefix(path) + key, language, text


def load_okta(root: Path):
    yield from load_properties_bundles(root, "packages/@okta/i18n/src/properties/login*.properties")


def load_keycloak(root: Path):
    yield from load_properties_bundles(root, "**/messages/messages_*.properties")


def load_apereo_cas(root: Path):
    yield from load_properties_bundles(root, "**/messages*.properties")
    yield from load_properties_bundles(
        root, "**/cas_common_messages.properties", stem_of=lambda path: "cas_common_messages")


def load_shibboleth(root: Path):
    yield from load_properties_bundles(root, "**/messages*.properties")


def load_wso2(root: Path):
    yield from load_properties_bundles(root, "**/Resources*.properties")


def load_openam(root: Path):
    # Bundle names (`amAuthLDAP`) prefix the keys: the same key means different things in different modules.
    yield from load_properties_bundles(
        root, "**/amAuth*.properties", key_prefix=lambda p: p.name.split("_")[0].split(".")[0] + ".")


def load_gluu(root: Path):
    yield from load_properties_bundles(root, "**/oxauth*.properties")


def load_authelia(root: Path):
    for path in sorted(root.glob("internal/server/locales/*/*.json")):
        for key, text in read_json(path).items():
            yield key, path.parent.name, text


def load_directory_json(root: Path, pattern: str):
    """One JSON catalog per language, named by the language (`de.json`)."""
    for path in sorted(root.glob(pattern)):
        for key, text in read_json(path).items():
            yield key, path.stem, text


def load_zitadel(root: Path):
    for path in sorted(root.glob("internal/api/ui/login/static/i18n/*.yaml")):
        for key, text in read_yaml(path).items():
            yield key, path.stem, text


def load_gettext(root: Path, pattern: str, language_of=lambda path: path.parent.parent.name):
    """gettext catalogs: the msgid is the key and the English text; msgstr is the translation."""
    for path in sorted(root.glob(pattern)):
        language = "en" if path.suffix == ".pot" else language_of(path)
        for key, english, text in read_po(path):
            yield key, "en", english
            if path.suffix == ".po" and text:
                yield key, language, text


def load_authentik(root: Path):
    for path in sorted(root.glob("web/xliff/*.xlf")):
        _, units = read_xliff(path)
        for _, source, target in units:
            yield source, "en", source
            if target:
                yield source, path.stem, target
    yield from load_gettext(root, "locale/*/LC_MESSAGES/django.po")


def load_simplesamlphp(root: Path):
    # Dictionaries: `{name:key}`; English in `name.definition.json`, the rest in `name.translation.json`.
    for definition in sorted(root.glob("**/dictionaries/*.definition.json")):
        name = definition.name[: -len(".definition.json")]
        module = definition.parent.parent.name
        prefix = name if module == "simplesamlphp" else f"{module}:{name}"
        translation = definition.with_name(name + ".translation.json")
        for file in (definition, translation):
            if not file.exists():
                continue
            for key, by_language in json.loads(file.read_text(encoding="utf-8")).items():
                for language, text in by_language.items():
                    if isinstance(text, str):
                        yield "{%s:%s}" % (prefix, key), language, text
    # Module catalogs: msgid is already the `{module:dictionary:key}` key.
    for path in sorted(root.glob("modules/*/locales/*/LC_MESSAGES/*.po")):
        language = path.parent.parent.name
        for key, _, text in read_po(path):
            if text:
                yield key, language, text


def load_lemonldap(root: Path):
    for path in sorted(root.glob("portal/htdocs/static/languages/*.json")):
        for key, text in read_json(path).items():
            yield key, path.stem, text
    for path in sorted(root.glob("portal/templates/common/mail/*.json")):
        for key, text in read_json(path).items():
            yield "mail." + key, path.stem, text


LOADERS = {
    "okta-signin-widget": load_okta,
    "keycloak": load_keycloak,
    "apereo-cas": load_apereo_cas,
    "shibboleth-idp": load_shibboleth,
    "authelia": load_authelia,
    "authentik": load_authentik,
    "zitadel": load_zitadel,
    "zitadel-login-typescript": lambda root: load_directory_json(root, "locales/*.json"),
    "ory-elements": lambda root: load_directory_json(root, "packages/elements-react/src/locales/*.json"),
    "wso2-identity-apps": load_wso2,
    "openam": load_openam,
    "gluu-oxauth": load_gluu,
    "privacyidea": lambda root: load_gettext(root, "privacyidea/**/messages.po*"),
    "linotp": lambda root: load_gettext(root, "linotp/i18n/*/LC_MESSAGES/linotp.po"),
    "simplesamlphp": load_simplesamlphp,
    "lemonldap-ng": load_lemonldap,
    "django-allauth": lambda root: load_gettext(root, "allauth/locale/*/LC_MESSAGES/django.po"),
    "django-two-factor-auth": lambda root: load_gettext(root, "two_factor/locale/*/LC_MESSAGES/django.po"),
    "flask-security-too": lambda root: load_gettext(root, "flask_security/translations/**/flask_security.po*"),
    "django-cas-server": lambda root: load_gettext(
        root, "cas_server/locale/**/django.po",
        language_of=lambda p: p.parent.name if p.parent.name != "LC_MESSAGES" else p.parent.parent.name),
}


# ---------------------------------------------------------------------------------------------------------------------
# Languages
# ---------------------------------------------------------------------------------------------------------------------

# Locales a source lists that are not the language their code names (SOURCES.md, Authelia caveats).
EXCLUDED_LOCALES = {("authelia", "yi-DE"), ("authelia", "sc-IT"), ("authelia", "ty-PF")}

# Written without spaces between words: phrases are matched inside the text ("embedded"), not as whole words.
SPACELESS = {"ja", "zh-Hans", "zh-Hant", "th", "lo", "km", "my"}

# Languages whose words inflect enough that a shared prefix ("stem") is worth emitting.
INFLECTED = {
    "de", "nl", "sv", "da", "nb", "nn", "is", "fi", "et", "hu", "tr", "az", "uz", "kk", "ky", "pl", "cs", "sk", "sl",
    "hr", "sr", "sr-Latn", "bs", "bg", "mk", "ru", "uk", "be", "lt", "lv", "el", "ro", "ka", "hy", "ko",
}


def read_language_table(folder: Path) -> dict[tuple[str, str], str]:
    """`languages.tsv`: (source, code as shipped) → BCP-47 code."""
    table = {}
    lines = (folder / "languages.tsv").read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        source, _, shipped, bcp47 = line.split("\t")
        for a, b in zip(shipped.split(), bcp47.split()):
            table[(source, a)] = b
    return table


def lexicon_language(bcp47: str, text: str) -> str:
    """The language a word is filed under: the primary subtag, except Chinese by script, Serbian by script (from the
    text itself), and Norwegian `no` as Bokmål."""
    parts = bcp47.split("-")
    base = parts[0].lower()
    if base == "zh":
        traditional = {"TW", "HK", "MO", "Hant"}
        return "zh-Hant" if traditional & set(parts[1:]) else "zh-Hans"
    if base == "sr":
        cyrillic = sum(1 for c in text if "\u0400" <= c <= "\u04ff")
        latin = sum(1 for c in text if (c.isascii() and c.isalpha()) or c in "čćđšžČĆĐŠŽ")
        return "sr" if cyrillic >= latin else "sr-Latn"
    if base == "no":
        return "nb"
    return base


# ---------------------------------------------------------------------------------------------------------------------
# Text → words
# ---------------------------------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile("|".join([
    r"\{\{[^{}]*\}\}",  # {{var}} (i18next, Go templates)
    r"\$\{[^{}]*\}",  # ${var}
    r"%\([^)]*\)[a-zA-Z]",  # %(name)s
    r"%\d+\$[a-zA-Z]",  # %1$s
    r"%[A-Za-z_]+%",  # %HOMEORG% (SimpleSAMLphp)
    r"%[sdifr]",  # %s
    r"</?\$\d+>",  # <$1> … </$1> (Okta)
    r"\$\d+",  # $1
    r"#\d+",  # #0 (Seam)
    r"\[y/n\]",
]))
_BRACES = re.compile(r"\{[^{}]*\}")  # ICU/MessageFormat {0}, {name}; nested {n, plural, one {…}} from the inside out
_TAG = re.compile(r"<[^<>]*>")
_URLISH = re.compile(r"\S+@\S+|\w+://\S+|www\.\S+")
_SPECIAL = re.compile(r"[{}%$<>&#\[@/']|www\.")
_SPACE = re.compile(r"\s+")


def clean(text: str) -> str:
    """Message text without markup, placeholders, URLs and e-mail addresses."""
    if _SPECIAL.search(text):
        text = text.replace("''", "'")
        text = _TAG.sub(" ", text)
        text = html.unescape(text)
        text = _TAG.sub(" ", text)
        text = _PLACEHOLDER.sub(" ", text)
        previous = None
        while previous != text:
            previous = text
            text = _BRACES.sub(" ", text)
        text = _URLISH.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


@functools.lru_cache(maxsize=None)
def is_word_char(c: str) -> bool:
    return unicodedata.category(c)[0] in "LMN"


@functools.lru_cache(maxsize=None)
def words(text: str) -> tuple[str, ...]:
    """Lower-case runs of letters, marks and digits: the engine splits identifiers and text the same way."""
    out, current = [], []
    for c in text:
        if is_word_char(c):
            current.append(c)
        elif current:
            out.append("".join(current).lower())
            current = []
    if current:
        out.append("".join(current).lower())
    return tuple(out)


@functools.lru_cache(maxsize=None)
def letter_count(word: str) -> int:
    return sum(1 for c in word if unicodedata.category(c)[0] == "L")


def first_sentence(text: str) -> str:
    """The first sentence (or two, when the first is a greeting or fragment): where a message says what it is about;
    what follows is usually advice ("Please contact your administrator", "Try again")."""
    parts = [p for p in re.split(r"(?<=[.!?;。！？])\s*|\n", text) if p.strip()]
    if not parts:
        return text
    chosen = parts[0]
    if len(words(chosen)) < 2 and len(parts) > 1:
        chosen += " " + parts[1]
    return chosen


# ---------------------------------------------------------------------------------------------------------------------
# Collecting messages
# ---------------------------------------------------------------------------------------------------------------------

SOURCE_TABLES = {
    "okta-signin-widget": OKTA, "keycloak": KEYCLOAK, "apereo-cas": APEREO_CAS, "shibboleth-idp": SHIBBOLETH,
    "authelia": AUTHELIA, "authentik": AUTHENTIK, "zitadel": ZITADEL, "zitadel-login-typescript": ZITADEL_LOGIN,
    "ory-elements": ORY_ELEMENTS, "wso2-identity-apps": WSO2, "openam": OPENAM, "gluu-oxauth": GLUU,
    "privacyidea": PRIVACYIDEA, "linotp": LINOTP, "simplesamlphp": SIMPLESAMLPHP, "lemonldap-ng": LEMONLDAP,
    "django-allauth": DJANGO_ALLAUTH, "django-two-factor-auth": DJANGO_TWO_FACTOR, "flask-security-too": FLASK_SECURITY,
    "django-cas-server": DJANGO_CAS_SERVER,
}


class KeyTable:
    """A source's key → concepts table: exact keys first, then `*` patterns (the longest pattern wins)."""

    def __init__(self, table: dict[str, str]):
        for value in table.values():
            for concept in value.split():
                if concept not in CONCEPTS:
                    raise SystemExit(f"unknown concept {concept!r} in a key table")
        self.exact = {k: tuple(v.split()) for k, v in table.items() if "*" not in k}
        patterns = sorted((k for k in table if "*" in k), key=len, reverse=True)
        self.patterns = [
            (re.compile("^" + ".*".join(re.escape(part) for part in k.split("*")) + "$", re.S), tuple(table[k].split()))
            for k in patterns]
        self.used: set[str] = set()

    def concepts(self, key: str) -> tuple[str, ...]:
        if key in self.exact:
            self.used.add(key)
            return self.exact[key]
        for pattern, concepts in self.patterns:
            if pattern.match(key):
                self.used.add(pattern.pattern)
                return concepts
        return ()


@dataclass(frozen=True)
class Message:
    source: str
    key: str
    concepts: tuple[str, ...]
    text: str  # cleaned

    @property
    def ref(self) -> str:
        return f"{self.source}:{self.key}"


def display_key(key: str) -> str:
    """A key as written in the `sources` column: gettext/text keys are sentences, so commas and tabs go and long ones
    are shortened."""
    key = re.sub(r"[\s,]+", " ", key).strip()
    return key if len(key) <= 24 else key[:23].rstrip() + "…"


def collect(folder: Path, verbose: bool = False):
    """Every message of every source, cleaned, by lexicon language: the mapped ones (with their concepts) and the set of
    all texts (the background the mapped ones are compared with)."""
    languages = read_language_table(folder)
    mapped: dict[str, dict[tuple[str, str], Message]] = defaultdict(dict)
    background: dict[str, set[str]] = defaultdict(set)
    parallel: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for source, loader in LOADERS.items():
        table = KeyTable(SOURCE_TABLES[source])
        rows = []
        english: dict[str, set[str]] = defaultdict(set)
        for key, shipped, raw in loader(folder / source):
            if (source, shipped) in EXCLUDED_LOCALES or not raw.strip():
                continue
            bcp47 = languages.get((source, shipped))
            if bcp47 is None:
                raise SystemExit(f"{source}: language {shipped!r} is not in languages.tsv")
            text = clean(raw)
            if text:
                rows.append((key, bcp47, text))
                if bcp47 == "en":
                    english[key].add(text)
        for key, bcp47, text in rows:
            if bcp47 != "en" and text in english.get(key, ()):
                continue  # left untranslated: English, not this language
            language = lexicon_language(bcp47, text)
            background[language].add(text)
            parallel[language][f"{source}\t{key}"].add(text)
            concepts = table.concepts(key)
            if concepts:
                message = Message(source, key, concepts, text)
                mapped[language][(message.ref, text)] = message
        if verbose:
            unused = [k for k in SOURCE_TABLES[source] if k not in table.used and
                      "^" + ".*".join(re.escape(p) for p in k.split("*")) + "$" not in table.used]
            if unused:
                print(f"note: {source}: keys that match nothing: {', '.join(sorted(unused))}", file=sys.stderr)
    return {lang: list(messages.values()) for lang, messages in mapped.items()}, background, parallel


# ---------------------------------------------------------------------------------------------------------------------
# Deriving words, stems and embedded phrases
# ---------------------------------------------------------------------------------------------------------------------

MAX_LENGTH = 40
LABEL_MAX_CONTENT_WORDS = 3  # a label: at most 3 words of 3+ letters …
LABEL_MAX_WORDS = 4  # … and at most 4 words in all ("Keep me signed in")
MIN_SENTENCE_KEYS = 2  # a word from sentences must occur in messages of 2 different sources or keys
STOP_SHARE = 0.33  # a word in the messages of this share of the concepts (or more) is a stop word
LABEL_OWNERSHIP = 0.5  # a word's rate in its concept, against its best rate in any concept (labels)
SENTENCE_OWNERSHIP = 0.75  # (sentences)
LABEL_PRECISION = 0.1  # share of the language's texts with a word that are its concept's (labels)
SENTENCE_PRECISION = 0.2  # (sentences)
MIN_RATE = 0.1  # a word from sentences must occur in at least this share of its concept's messages
EMBEDDED_SHORT = 8  # a message of a spaceless script this short is a phrase in itself
EMBEDDED_MIN, EMBEDDED_MAX = 2, 6  # lengths of common substrings
EMBEDDED_PER_CONCEPT = 12  # at most this many substrings per concept and language (the most shared)
STEM_MIN = 5
STEM_MIN_BY_LANGUAGE = {"ko": 2}  # Hangul: a letter is a syllable

Entry = tuple[str, str, str, str]  # concept, kind, language, text


@dataclass
class Doc:
    """One message key's text(s) in one language, as the derivation sees it."""
    ref: str
    concepts: tuple[str, ...]
    texts: list[str] = field(default_factory=list)

    @property
    def primary(self) -> str:
        return self.concepts[0]


def group_docs(messages: list[Message]) -> list[Doc]:
    docs: dict[str, Doc] = {}
    for m in sorted(messages, key=lambda m: (m.ref, m.text)):
        doc = docs.setdefault(m.ref, Doc(m.ref, m.concepts))
        doc.texts.append(m.text)
    return list(docs.values())


def acceptable(text: str) -> bool:
    """Not a placeholder, address, number or sentence: what may go in the table."""
    return (len(text) <= MAX_LENGTH and not text.isdigit() and "@" not in text and "://" not in text
            and letter_count(text) >= 1)


def shape(text: str) -> tuple[list[str], bool]:
    """A text's words and whether it is a label (short) rather than a sentence."""
    all_words = words(text)
    content = [w for w in all_words if letter_count(w) >= 3]
    label = len(content) <= LABEL_MAX_CONTENT_WORDS and len(all_words) <= LABEL_MAX_WORDS
    return all_words, label


# English has no parallel text to check its words against, and a few words go with a concept's messages without
# meaning it ("Enter the code", "Your account is locked"): they are not words of any concept.
GENERIC_WORDS = {"en": {
    "account", "enter", "please", "your", "forgot", "use", "using", "the", "with", "not", "one", "time", "name",
    "email", "found", "missing", "show", "here", "successful", "mobile", "add", "get", "call", "message", "text",
    "choice", "address", "certificate", "value", "character", "yes", "there", "report", "permission", "authorization",
    "don", "authentication", "security", "app", "key", "sent", "during", "receive",
}}

# English words that sit in a concept's messages and still say nothing of it alone, so a page rule must not act on
# them: "Internal users" is no error heading, "Passwords must match" no refused password, "Sign up" no sign-in, "Two
# accounts" no second factor, "Set a password" no enrolment. They stay anchors for the other languages (the joined
# forms, `somethingwentwrong`, `passwordsdonotmatch`, `signin`, are kept); only the row of the lone word is left out.
WEAK_ALONE = {
    "error": {"internal", "occurred", "something", "went", "unexpected"},
    "wrong": {"match", "passwords", "passwordsdonotmatch", "passwordsdontmatch"},
    "signIn": {"log", "sign"},
    "secondFactor": {"two", "second", "factor"},
    "enroll": {"set"},
    "staySignedIn": {"signed"},
}

# Product and protocol names: never a concept's word, whatever messages they sit in.
BRANDS = {
    "okta", "keycloak", "cas", "shibboleth", "authelia", "authentik", "zitadel", "ory", "wso2", "openam", "gluu",
    "oxauth", "casa", "privacyidea", "linotp", "simplesamlphp", "lemonldap", "spname", "google", "facebook", "github",
    "microsoft", "apple", "stytch", "inwebo", "twilio", "oxpush", "netid", "openid", "ldap", "saml", "oauth",
    "kerberos",
}


def derive_spaced(language: str, docs: list[Doc], background: set[str], found: dict[Entry, set[str]],
                  aligned=lambda concept, word: True) -> set[str]:
    """Words (and joined label forms) of one language written with spaces; returns its stop words.

    Each message is a label (at most 3 words of 3+ letters, 4 in all) or a sentence (only its first sentence counts:
    the rest is usually advice). A word goes to a concept when:
    - it is the concept's own word: the whole of 2 of its labels or more ("Password"), or a word of such a label that no
      shorter label of another concept has ("mot", "passe" of "Mot de passe"; not "password" of "New password"); or
    - it is in 2 of the concept's labels, at half its best rate in any concept and with 10% of the language's texts
      that have it being the concept's; or it is in the first sentence of 2 of the concept's messages (different keys),
      in 10% of them, at 3/4 of its best rate, with 20% of the texts that have it being the concept's;
    and it is not a stop word (common in the messages of a third of the concepts or in the labels of 3 of them), a
    brand, or shorter than 3 letters; and `aligned` agrees. A message's further concepts then take the words that no
    concept has claimed.
    """
    concepts_present = sorted({d.primary for d in docs})
    # Word sets per doc: a label gives all its words; a sentence its first sentence's words.
    doc_words: dict[str, set[str]] = {}
    doc_label_words: dict[str, set[str]] = {}
    doc_labels: dict[str, list[list[str]]] = {}
    for d in docs:
        ws, lw, labels = set(), set(), []
        for text in d.texts:
            all_words, label = shape(text)
            if label:
                lw.update(all_words)
                ws.update(all_words)
                labels.append(all_words)
            else:
                ws.update(words(first_sentence(text)))
        doc_words[d.ref], doc_label_words[d.ref], doc_labels[d.ref] = ws, lw, labels

    pools: dict[str, list[Doc]] = defaultdict(list)
    for d in docs:
        pools[d.primary].append(d)
    count: dict[str, Counter] = {c: Counter() for c in pools}
    label_count: Counter = Counter()
    core_count: Counter = Counter()  # (label's long words, concept) → labels
    for c, pool in pools.items():
        for d in pool:
            count[c].update(doc_words[d.ref])
            for w in doc_label_words[d.ref]:
                label_count[(w, c)] += 1
            for core in {tuple(w for w in label if letter_count(w) >= 3) for label in doc_labels[d.ref]}:
                if core:
                    core_count[(core, c)] += 1
    rate = {c: {w: n / len(pools[c]) for w, n in count[c].items()} for c in pools}
    # A concept's own words: the words of a label that is the whole text of 2 of its messages or more ("Password",
    # "Mot de passe", "New password"); a word in several such labels belongs to the concepts of the shortest ("password"
    # to password, not to newPassword), and a word of a longer label needs 30% of the concept's messages. Also a word
    # in 3 of its labels or more and 30% of its messages, at twice its rate in any other concept ("Device name").
    shortest: dict[str, tuple[int, set[str]]] = {}
    for (core, c), n in core_count.items():
        if n < 2:
            continue
        for w in core:
            size, holders = shortest.get(w, (99, set()))
            if len(core) < size:
                shortest[w] = (len(core), {c})
            elif len(core) == size:
                holders.add(c)
    spread = Counter()  # in how many concepts' messages a word is common (5% of them or more)
    for c in pools:
        spread.update(w for w, r in rate[c].items() if r >= 0.05)
    stop_limit = max(3, STOP_SHARE * len(concepts_present))
    strong: dict[str, set[str]] = defaultdict(set)
    for w, (size, holders) in shortest.items():
        if size == 1:
            strong[w].update(holders)
        elif len(holders) == 1:
            (c,) = holders
            if rate[c][w] >= 0.3 and rate[c][w] >= LABEL_OWNERSHIP * max(rate[x].get(w, 0.0) for x in pools):
                strong[w].add(c)
    for (w, c), n in label_count.items():
        rates = sorted((rate[x].get(w, 0.0) for x in pools), reverse=True) + [0.0]
        if n >= 3 and rate[c][w] >= 0.3 and rate[c][w] == rates[0] and rates[0] >= 2 * rates[1]:
            strong[w].add(c)
    strong = {w: cs for w, cs in strong.items() if cs and w not in GENERIC_WORDS.get(language, ())}
    label_concepts = Counter(w for (w, c), n in label_count.items() if n >= 2)

    stop = {w for w, n in spread.items() if n >= stop_limit or label_concepts[w] >= 3}
    stop = {w for w in stop if w not in strong}

    background_df = Counter()
    for text in background:
        background_df.update(set(words(text)))
    concept_df: dict[str, Counter] = {}
    for c, pool in pools.items():
        concept_df[c] = Counter(w for t in {t for d in pool for t in d.texts} for w in set(words(t)))

    def precision(c: str, w: str) -> float:
        """The share of all the language's texts with `w` that are texts of concept `c`."""
        return concept_df[c][w] / max(1, background_df[w])

    def best_rate(w: str) -> float:
        return max(rate[c].get(w, 0.0) for c in pools)

    claimed: dict[str, set[str]] = defaultdict(set)

    def emit(concept: str, text: str, refs: set[str], kind: str = "word"):
        if not acceptable(text) or (kind == "word" and not aligned(concept, text)):
            return
        found.setdefault((concept, kind, language, text), set()).update(refs)
        claimed[text].add(concept)

    def allowed(c: str, w: str) -> bool:
        return (letter_count(w) >= 3 and w not in stop and w not in BRANDS and w not in GENERIC_WORDS.get(language, ())
                and (w not in strong or c in strong[w]))

    for c, pool in pools.items():
        for w in count[c]:
            if not allowed(c, w):
                continue
            holders = {d.ref for d in pool if w in doc_words[d.ref]}
            label_holders = {d.ref for d in pool if w in doc_label_words[d.ref]}
            if w in strong:
                emit(c, w, holders)
                continue
            if rate[c][w] < LABEL_OWNERSHIP * best_rate(w):
                continue
            prec = precision(c, w)
            if len(label_holders) >= 2 and prec >= LABEL_PRECISION:
                emit(c, w, label_holders)
            elif (len(holders) >= MIN_SENTENCE_KEYS and rate[c][w] >= MIN_RATE
                  and rate[c][w] >= SENTENCE_OWNERSHIP * best_rate(w) and prec >= SENTENCE_PRECISION):
                emit(c, w, holders)

    # Joined forms of labels ("signin", "keepmesignedin"), the way identifiers write them: found in 2 sources or more
    # (2 messages in English, the language of most identifiers), every long word of the label a word of the table or
    # a stop word, and the label's concept the one that holds the form most often.
    joins: dict[str, Counter] = defaultdict(Counter)
    join_refs: dict[tuple[str, str], set[str]] = defaultdict(set)
    for d in docs:
        for label in doc_labels[d.ref]:
            if not 2 <= len(label) <= LABEL_MAX_WORDS or any(w.isdigit() for w in label):
                continue
            long_words = [w for w in label if letter_count(w) >= 3]
            if not any(d.primary in claimed.get(w, ()) for w in long_words):
                continue
            if all(w in claimed or w in stop for w in long_words):
                j = "".join(label)
                joins[j][d.primary] += 1
                join_refs[(j, d.primary)].add(d.ref)
    for j, by_concept in joins.items():
        top = max(by_concept.values())
        for c, n in by_concept.items():
            refs = join_refs[(j, c)]
            enough = len(refs) >= 2 if language == "en" else len({ref.split(":", 1)[0] for ref in refs}) >= 2
            if n * 2 >= top and enough and letter_count(j) >= 3 and j not in claimed:
                emit(c, j, join_refs[(j, c)], kind="join")

    # Further concepts of a message take the words no concept has claimed.
    secondary: dict[str, list[Doc]] = defaultdict(list)
    for d in docs:
        for c in d.concepts[1:]:
            secondary[c].append(d)
    for c, pool in secondary.items():
        pool_count = Counter()
        for d in pool:
            pool_count.update(doc_words[d.ref])
        for w, n in pool_count.items():
            if n < MIN_SENTENCE_KEYS or w in claimed or not allowed(c, w) or n / len(pool) < MIN_RATE:
                continue
            mine = sum(1 for d in pool for t in d.texts if w in words(t))
            if mine / max(1, background_df[w]) < SENTENCE_PRECISION:
                continue
            emit(c, w, {d.ref for d in pool if w in doc_words[d.ref]})
    return stop


ALIGN_MIN = 0.5  # share of a word's messages whose English says the concept


def english_word_sets(english: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each message's English words."""
    return {ref: {w for t in texts for w in words(t)} for ref, texts in english.items()}


class Alignment:
    """Whether a word (or stem, or phrase) of a language other than English means a concept, judged on every message
    (mapped to a concept or not) that has both the language and English: at least half of the messages with the word
    must say, in English, one of the concept's English words, and no generic English word ("enter", "your", "account",
    "me") may go with the word more: not in more of its messages, nor, in as many, in a larger share of the messages
    that have the generic word. So translations of "Enter the code" do not make "enter" a word for code, nor "Remember
    me" make "me" one for staySignedIn, while "gesperrt" stays locked's although "Your account is locked" always says
    "account"."""

    def __init__(self, english_words: dict[str, set[str]], other: dict[str, set[str]], anchors: dict[str, set[str]],
                 generic: set[str]):
        self.english_words = {ref: ws for ref, ws in english_words.items() if ref in other}
        self.by_english: dict[str, set[str]] = defaultdict(set)
        for ref, ws in self.english_words.items():
            for w in ws:
                self.by_english[w].add(ref)
        self.anchors = anchors
        self.generic = [self.by_english[g] for g in sorted(generic) if g in self.by_english]
        self.concept_refs: dict[str, set[str]] = {}

    def check(self, concept: str, refs: set[str]) -> bool:
        """Whether the messages `refs` (those with the word) say the concept."""
        if concept not in self.concept_refs:
            self.concept_refs[concept] = set().union(*(self.by_english.get(a, set()) for a in self.anchors[concept]))
        theirs = self.concept_refs[concept]
        hits = len(refs & theirs)
        if hits < 2 or hits < ALIGN_MIN * len(refs):
            return False
        mine = (hits / len(refs), hits / len(theirs))
        for g in self.generic:
            shared = len(refs & g)
            if (shared / len(refs), shared / len(g)) > mine:
                return False
        return True


def aligner(english_words: dict[str, set[str]], other: dict[str, set[str]], anchors: dict[str, set[str]],
            generic: set[str]):
    """`aligned(concept, word, stem=False)` for a language written with spaces: a message has the word when one of its
    words is it (with `stem`, contains it)."""
    alignment = Alignment(english_words, other, anchors, generic)
    word_refs: dict[str, set[str]] = defaultdict(set)
    for ref, texts in other.items():
        if ref in alignment.english_words:
            for t in texts:
                for w in words(t):
                    word_refs[w].add(ref)

    def aligned(concept: str, word: str, stem: bool = False) -> bool:
        if stem:
            refs = set().union(*(r for w, r in word_refs.items() if word in w))
        else:
            refs = word_refs.get(word, set())
        return alignment.check(concept, refs)
    return aligned


def embedded_aligner(english_words: dict[str, set[str]], other: dict[str, set[str]], anchors: dict[str, set[str]],
                     generic: set[str]):
    """`aligned(concept, phrase)` for a language written without spaces: a message has the phrase when its text
    contains it."""
    alignment = Alignment(english_words, other, anchors, generic)
    texts = {ref: "\n".join(s for t in sorted(ts) for s in segments(t))
             for ref, ts in other.items() if ref in alignment.english_words}
    by_pair: dict[str, set[str]] = defaultdict(set)  # two characters → messages that have them
    for ref, text in texts.items():
        for i in range(len(text) - 1):
            by_pair[text[i:i + 2]].add(ref)

    def aligned(concept: str, phrase: str) -> bool:
        return alignment.check(concept, {ref for ref in by_pair.get(phrase[:2], ()) if phrase in texts[ref]})
    return aligned


def is_spaceless_char(c: str) -> bool:
    """A letter of a script written without spaces: Han, kana, Thai, Lao, Khmer, Myanmar (and their marks)."""
    o = ord(c)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF
            or 0x31F0 <= o <= 0x31FF or 0xFF66 <= o <= 0xFF9F or 0x0E00 <= o <= 0x0EFF or 0x1780 <= o <= 0x17FF
            or 0x1000 <= o <= 0x109F or o == 0x30FC)


def segments(text: str) -> list[str]:
    """Runs of spaceless-script letters in a text ("認証コード (OTP)" → ["認証コード"])."""
    out, current = [], []
    for c in text:
        if is_spaceless_char(c) and unicodedata.category(c)[0] in "LM":
            current.append(c)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return out


def script_of(c: str) -> str:
    """Which Japanese script a character is in."""
    o = ord(c)
    if 0x3040 <= o <= 0x309F:
        return "hiragana"
    if 0x30A0 <= o <= 0x30FF or 0x31F0 <= o <= 0x31FF or 0xFF66 <= o <= 0xFF9F:
        return "katakana"
    return "han" if 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF else "other"


def japanese_units(segment: str) -> set[str]:
    """Word-like pieces of Japanese text, cut where the script changes: katakana words (パスワード), kanji words
    (無効) and kanji with the hiragana that inflects them (間違って, 正しくありません, 期限切れ)."""
    runs = [("".join(ch for ch, _ in group), script) for script, group in
            itertools.groupby(((ch, script_of(ch)) for ch in segment), key=lambda pair: pair[1])]
    units = {text for text, script in runs if script in ("katakana", "han")}
    for (text, script), (following, next_script) in zip(runs, runs[1:]):
        if script == "han" and next_script == "hiragana":
            units.add(text + following)
    return {u for u in units if EMBEDDED_MIN <= len(u) <= EMBEDDED_SHORT}


def derive_spaceless(language: str, docs: list[Doc], background: set[str], found: dict[Entry, set[str]],
                     aligned=lambda c, p: True):
    """Embedded phrases of a language written without spaces (Japanese, Chinese, Thai, …). The candidates of a concept
    are its short messages (8 characters or fewer) and the phrases of 2–6 characters that 2 of its messages share and
    no message of another concept has, when such a phrase is a word: a short message somewhere in the language, or,
    for Japanese, a piece cut where the script changes. The most shared are taken first, at most 12 a concept, leaving
    out a phrase that holds one already taken or is held by it; `aligned` has the last word, as for words."""
    dictionary = set()
    for text in background:
        segs = segments(text)
        if sum(map(len, segs)) <= EMBEDDED_SHORT:
            dictionary.update(s for s in segs if EMBEDDED_MIN <= len(s) <= EMBEDDED_MAX)
    doc_segments = {d.ref: [s for t in d.texts for s in segments(t)] for d in docs}
    short: dict[tuple[str, str], set[str]] = defaultdict(set)
    substrings: dict[tuple[str, str], set[str]] = defaultdict(set)
    for d in docs:
        segs = doc_segments[d.ref]
        if not segs:
            continue
        for text in d.texts:
            letters = "".join(segments(text))
            if len(letters) <= EMBEDDED_SHORT:
                for s in segments(text):
                    if len(s) >= EMBEDDED_MIN:
                        short[(d.primary, s)].add(d.ref)
        subs = {s[i:i + n] for s in segs for n in range(EMBEDDED_MIN, EMBEDDED_MAX + 1) for i in range(len(s) - n + 1)}
        subs = {sub for sub in subs if sub in dictionary}
        if language == "ja":
            subs |= {u for s in segs for u in japanese_units(s)}
        for sub in subs:
            substrings[(d.primary, sub)].add(d.ref)

    others: dict[str, str] = {}

    def elsewhere(concept: str, phrase: str) -> bool:
        """Whether a message not about `concept` has the phrase."""
        if concept not in others:
            others[concept] = "\n".join(s for d in docs if concept not in d.concepts for s in doc_segments[d.ref])
        return phrase in others[concept]

    kept: dict[tuple[str, str], set[str]] = {}
    for (c, sub), refs in substrings.items():
        if len(refs) >= 2 and not elsewhere(c, sub):
            kept[(c, sub)] = refs
    for (c, phrase), refs in short.items():  # a short message is a phrase even if other concepts' messages have it
        kept.setdefault((c, phrase), set()).update(refs)
        kept[(c, phrase)].update(
            d.ref for d in docs if d.primary == c and any(phrase in s for s in doc_segments[d.ref]))
    by_concept: dict[str, list[str]] = defaultdict(list)
    for (c, sub) in kept:
        by_concept[c].append(sub)
    for c, subs in by_concept.items():
        # A phrase that holds one already taken, or is held by it, adds nothing ("無効" taken, "無効なコード" not).
        subs.sort(key=lambda s: (-len(kept[(c, s)]), len(s), s))
        taken: list[str] = []
        for sub in subs:
            if len(taken) >= EMBEDDED_PER_CONCEPT:
                break
            if any(sub in t or t in sub for t in taken) or not aligned(c, sub):
                continue
            taken.append(sub)
            found.setdefault((c, "embedded", language, sub), set()).update(kept[(c, sub)])


def derive_stems(language: str, found: dict[Entry, set[str]], aligned=lambda c, p, stem=False: True):
    """Stems for an inflected language: the common prefix (5 letters or more) of 2 words of a concept, when no word of
    another concept has it and the messages with a word that has it are about the concept (as for words)."""
    by_concept: dict[str, dict[str, set[str]]] = defaultdict(dict)
    for (c, kind, lang, text), refs in found.items():
        if lang == language and kind == "word":
            by_concept[c][text] = refs
    minimum = STEM_MIN_BY_LANGUAGE.get(language, STEM_MIN)
    for c, entries in sorted(by_concept.items()):
        candidates: dict[str, set[str]] = {}
        for a, b in itertools.combinations(sorted(entries), 2):
            prefix = os.path.commonprefix([a, b])
            if letter_count(prefix) >= minimum:
                candidates.setdefault(prefix, set()).update(entries[a] | entries[b])
        others = [w for oc, e in by_concept.items() if oc != c for w in e]
        stems = sorted(p for p in candidates if not any(p in w for w in others) and aligned(c, p, stem=True))
        for p in stems:
            if any(q != p and p.startswith(q) for q in stems):
                continue  # a shorter stem already covers it
            found.setdefault((c, "stem", language, p), set()).update(candidates[p])


# LemonLDAP::NG pages show message keys, not text, until the browser translates them: `<span trmsg="5">` (portal
# error PE5), `<span trspan="connect">`, `<input trplaceholder="login">`. Placeholders name the field they sit in.
LEMONLDAP_PLACEHOLDERS = {
    "login": "user", "password": "password", "code": "code", "newPassword": "newPassword", "confirmPwd": "newPassword",
}


def lemonldap_keys(found: dict[Entry, set[str]]):
    """Key rows (language `zxx`, no linguistic content) for every LemonLDAP::NG key of the table."""
    for key, value in LEMONLDAP.items():
        match = re.fullmatch(r"PE(\d+)", key)
        if key.startswith("mail."):
            continue
        attribute = ("trmsg", match.group(1)) if match else ("trspan", key)
        for concept in value.split():
            found.setdefault((concept, "key", "zxx", "=".join(attribute)), set()).add(f"lemonldap-ng:{key}")
    for key, concept in LEMONLDAP_PLACEHOLDERS.items():
        found.setdefault((concept, "key", "zxx", f"trplaceholder={key}"), set()).add(f"lemonldap-ng:{key}")


# ---------------------------------------------------------------------------------------------------------------------
# The table and the Swift file
# ---------------------------------------------------------------------------------------------------------------------

MAX_SOURCES = 3
# Sources whose translations are machine-made (SOURCES.md: Ory Elements' locales come from an LLM script). They help
# find a word; a word only they have is left out.
MACHINE_TRANSLATED = {"ory-elements"}


def build(folder: Path, verbose: bool = False) -> list[tuple[str, str, str, str, str]]:
    """Every table row, sorted: (concept, kind, language, text, sources)."""
    mapped, background, parallel = collect(folder, verbose)
    found: dict[Entry, set[str]] = {}
    english_stop = derive_spaced("en", group_docs(mapped["en"]), background["en"], found)
    anchors: dict[str, set[str]] = defaultdict(set)
    for concept, kind, _, text in found:
        if kind == "word":
            anchors[concept].add(text)
    # Words no concept may claim: English stop words, the listed generic words, and short words ("me", "in").
    short = {w for t in background["en"] for w in words(t) if letter_count(w) < 3}
    generic = english_stop | GENERIC_WORDS["en"] | short
    english_words = english_word_sets(parallel["en"])
    for language in sorted(mapped):
        if language == "en":
            continue
        docs = group_docs(mapped[language])
        if language in SPACELESS:
            derive_spaceless(language, docs, background[language], found,
                             embedded_aligner(english_words, parallel[language], anchors, generic))
            continue
        aligned = aligner(english_words, parallel[language], anchors, generic)
        derive_spaced(language, docs, background[language], found, aligned)
        if language in INFLECTED:
            derive_stems(language, found, aligned)
    lemonldap_keys(found)

    rows = []
    for (concept, kind, language, text), refs in found.items():
        if language != "en" and all(ref.split(":", 1)[0] in MACHINE_TRANSLATED for ref in refs):
            continue  # a machine translation alone is no evidence of how people write a language
        if kind == "word" and text in WEAK_ALONE.get(concept, ()):
            continue  # in the concept's messages, but alone it says nothing a page rule may act on
        rows.append((concept, "word" if kind == "join" else kind, language, text, ",".join(pick_sources(refs))))
    rows = sorted(set(rows))
    # A text found both as a word and as a joined label is one row.
    seen, unique = set(), []
    for row in rows:
        if row[:4] not in seen:
            seen.add(row[:4])
            unique.append(row)
    return unique


def pick_sources(refs: set[str]) -> list[str]:
    """Up to 3 `source:key` references from different sources (the shortest of each source, and of those the
    shortest), sorted."""
    by_source: dict[str, str] = {}
    for ref in sorted(refs, key=lambda r: (len(r), r)):
        source, key = ref.split(":", 1)
        by_source.setdefault(source, f"{source}:{display_key(key)}")
    return sorted(sorted(by_source.values(), key=lambda r: (len(r), r))[:MAX_SOURCES])


SWIFT_HEADER = """\
// Generated by Tools/lexicon/build-lexicon.py from ../shared/corpus/idp-strings (the sign-in message catalogs of
// 20 identity providers and sign-in libraries; SOURCES.md there names each one). Do not edit by hand: change the tool
// (its key → concept tables) and run `python3 Tools/lexicon/build-lexicon.py`.

extension SignInLexicon {
    /// Sign-in vocabulary from real identity providers' translated messages, one entry per line, tab-separated:
    /// `concept  kind  language  text` (where each entry was found: `Tools/lexicon/catalog-sources.tsv`).
    /// - `concept`: a `Concept` case name (`wrong`, `staySignedIn`, …).
    /// - `kind`: `word` (a whole lower-case word or the joined words of a short label, `keepmesignedin`), `stem` (a
    ///   prefix shared by inflected forms, matched inside a word), `embedded` (a phrase of a script written without
    ///   spaces, matched inside the text) or `key` (a message key a page carries instead of text, `attribute=key`, for
    ///   language `zxx`).
    /// - `language`: BCP-47 (`de`, `pt`, `zh-Hans`, `sr-Latn`).
    static let catalogTable: String = #\"\"\"
"""

SWIFT_FOOTER = """\
        \"\"\"#
}
"""


SOURCES_HEADER = """\
# Where each entry of SignInLexicon.catalogTable (Modules/HTML/Lexicon/SignInLexicon+Catalogs.swift) was found.
# Generated by Tools/lexicon/build-lexicon.py with that file; do not edit by hand. Kept out of the program, which
# needs only the first four columns. Tab-separated: concept, kind, language, text, then up to 3 source:messageKey
# (gettext keys are the English text, shortened).
"""


def render_sources(rows) -> str:
    """The provenance table: every row with its sources, in the Swift table's order."""
    return SOURCES_HEADER + "".join("\t".join(row) + "\n" for row in rows)


def render(rows) -> str:
    """The Swift file, laid out as swift-format leaves it (the literal's lines indented under the declaration): each
    row without its sources, which only the provenance table keeps."""
    lines = []
    for row in rows:
        line = "\t".join(row[:4])
        if '"""' in line or "\\#" in line or "\n" in line or "\r" in line:
            raise SystemExit(f"cannot put {line!r} in a raw string literal")
        lines.append(" " * 8 + line)
    return SWIFT_HEADER + "\n".join(lines) + "\n" + SWIFT_FOOTER


def coverage(rows) -> str:
    """Entries per concept and language, as a text table."""
    table: dict[str, Counter] = defaultdict(Counter)
    for concept, _, language, _, _ in rows:
        table[concept][language] += 1
    languages = sorted({lang for c in table.values() for lang in c} - {"zxx"})
    out = [f"{len(rows)} entries, {len(languages)} languages (plus zxx for page keys)"]
    out.append("concept".ljust(20) + "total  languages")
    for concept in sorted(table):
        by = table[concept]
        langs = ", ".join(f"{lang}:{by[lang]}" for lang in sorted(by))
        out.append(f"{concept.ljust(20)}{str(sum(by.values())).rjust(5)}  {langs}")
    return "\n".join(out)


def main(argv=None) -> int:
    root = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("catalogs", nargs="?", default=str(root / ".." / "shared" / "corpus" / "idp-strings"),
                        help="the catalog folder (default: ../shared/corpus/idp-strings from the repository root)")
    parser.add_argument("--output", default=str(root / "Modules" / "HTML" / "Lexicon" / "SignInLexicon+Catalogs.swift"),
                        help="the Swift file to write")
    parser.add_argument("--sources-output", default=str(root / "Tools" / "lexicon" / "catalog-sources.tsv"),
                        help="the provenance table to write (each entry with its sources)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 with a diff if the output file differs from what would be written")
    parser.add_argument("--quiet", action="store_true", help="no coverage summary (--check prints none)")
    parser.add_argument("--verbose", action="store_true", help="also list table keys that match no message")
    args = parser.parse_args(argv)

    folder = Path(args.catalogs)
    if not (folder / "languages.tsv").exists():
        print(f"error: {folder} has no languages.tsv (not the idp-strings catalog folder?)", file=sys.stderr)
        return 2
    rows = build(folder, args.verbose)
    outputs = [(Path(args.output), render(rows)), (Path(args.sources_output), render_sources(rows))]
    if not args.quiet and not args.check:
        print(coverage(rows), file=sys.stderr)
    if args.check:
        stale = 0
        for output, text in outputs:
            current = output.read_text(encoding="utf-8") if output.exists() else ""
            if current == text:
                continue
            diff = difflib.unified_diff(current.splitlines(keepends=True), text.splitlines(keepends=True),
                                        fromfile=str(output), tofile="expected")
            sys.stdout.writelines(diff)
            print(f"{output} is out of date: run python3 Tools/lexicon/build-lexicon.py", file=sys.stderr)
            stale = 1
        return stale
    for output, text in outputs:
        output.parent.mkdir(parents=True, exist_ok=True)
        if not output.exists() or output.read_text(encoding="utf-8") != text:
            output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
